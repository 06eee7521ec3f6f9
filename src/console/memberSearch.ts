import { PlatformUnavailableError, type Platform } from '../core/platform.js';
import { displayName } from '../guild/ordering.js';

/** The most members a search offers: enough to pick from on a phone, one request to the platform. */
export const MEMBER_SEARCH_LIMIT = 10;
/** Usernames, global names and nicknames are at most 32 characters: a longer start matches no one. */
export const MEMBER_QUERY_MAX = 32;

export interface FoundMember {
  userId: string;
  name: string;
  username: string;
}

/**
 * A member search as a page shows it: nothing asked yet, a query refused (the message for its field), the members
 * found (none is an answer too), or the platform unreachable (the page answers 503 and keeps its form).
 */
export type MemberSearch =
  | { kind: 'none' }
  | { kind: 'invalid'; query: string; message: string }
  | { kind: 'found'; query: string; members: FoundMember[] }
  | { kind: 'unavailable'; query: string; retryAfterSeconds?: number };

/**
 * A server's members whose name starts with what the manager typed (trimmed; 1 to 32 characters), at most
 * MEMBER_SEARCH_LIMIT, with the name the console shows for each. An absent query is no search at all.
 */
export async function searchMembers(platform: Platform, guildId: string, raw: string | undefined): Promise<MemberSearch> {
  if (raw === undefined) return { kind: 'none' };
  const query = raw.trim();
  if (query.length === 0) return { kind: 'invalid', query, message: "Type the start of a member's name: 1 to 32 characters." };
  if (query.length > MEMBER_QUERY_MAX) return { kind: 'invalid', query, message: `Names are at most ${MEMBER_QUERY_MAX} characters: type the start of one.` };
  try {
    const members = await platform.searchMembers(guildId, query, MEMBER_SEARCH_LIMIT);
    return { kind: 'found', query, members: members.map((m) => ({ userId: m.userId, name: displayName(m) ?? m.username, username: m.username })) };
  } catch (err) {
    if (err instanceof PlatformUnavailableError) return { kind: 'unavailable', query, retryAfterSeconds: err.retryAfterSeconds };
    throw err;
  }
}
