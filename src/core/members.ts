import { botAccount, memberNotFound } from './errors.js';
import type { Platform, PlatformMember } from './platform.js';

/** The member a write targets: refused when not in the server (404) or a bot (422), as the spec's errors say. */
export async function requireHumanMember(platform: Platform, guildId: string, userId: string): Promise<PlatformMember> {
  const member = await platform.getMember(guildId, userId);
  if (!member) throw memberNotFound();
  if (member.bot) throw botAccount();
  return member;
}
