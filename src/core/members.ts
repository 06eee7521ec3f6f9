import { botAccount, memberNotFound } from './errors.js';
import type { Platform, PlatformMember } from './platform.js';

/** Why a user cannot be the target of a write meant for a human member of the server. */
export type HumanMemberRefusal = 'MEMBER_NOT_FOUND' | 'BOT_ACCOUNT';

/** The user as a human member of the server now, or why not: not in the server, or a bot. */
export async function findHumanMember(
  platform: Pick<Platform, 'getMember'>,
  guildId: string,
  userId: string,
): Promise<{ member: PlatformMember } | { refusal: HumanMemberRefusal }> {
  const member = await platform.getMember(guildId, userId);
  if (!member) return { refusal: 'MEMBER_NOT_FOUND' };
  if (member.bot) return { refusal: 'BOT_ACCOUNT' };
  return { member };
}

/** The member a write targets: refused when not in the server (404) or a bot (422), as the spec's errors say. */
export async function requireHumanMember(platform: Platform, guildId: string, userId: string): Promise<PlatformMember> {
  const found = await findHumanMember(platform, guildId, userId);
  if ('refusal' in found) throw found.refusal === 'MEMBER_NOT_FOUND' ? memberNotFound() : botAccount();
  return found.member;
}
