import type { MemberCache } from '../core/memberCache.js';
import { displayName } from '../guild/ordering.js';

/**
 * The display names of a server's members by user id, for pages that would otherwise show raw ids. A user the
 * platform does not know as a member (left the server) is missing, and so is one whose lookup failed: a name is a
 * courtesy, and the page shows the id instead rather than failing.
 */
export async function memberNames(memberCache: MemberCache, guildId: string, userIds: Iterable<string>): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  const looked = await Promise.allSettled(ids.map((id) => memberCache.getMember(guildId, id)));
  const names = new Map<string, string>();
  looked.forEach((result, i) => {
    const name = result.status === 'fulfilled' && result.value ? displayName(result.value) : null;
    if (name) names.set(ids[i]!, name);
  });
  return names;
}
