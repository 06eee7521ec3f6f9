import type { Kysely } from 'kysely';
import { findPlatformGuild, upsertPlatformMember } from '../../db/platform/local.js';
import { markPlatformGuildLeft, updatePlatformMember } from '../../db/platform/mirror.js';
import type { Database } from '../../db/schema.js';
import type { PlatformMember } from '../core/platform.js';

/**
 * A member's roles, names and timeout as the platform reports a change of them (Discord's GUILD_MEMBER_UPDATE), in
 * a server the service knows. Someone not recorded as a member is left alone (their join is GUILD_MEMBER_ADD's or the
 * reconciliation's), except the bot itself: its roles decide what it may ask of the platform there.
 */
export async function applyMemberChange(trx: Kysely<Database>, guildId: string, m: PlatformMember): Promise<'updated' | 'unknown'> {
  const guild = await findPlatformGuild(trx, guildId);
  if (!guild) return 'unknown';
  const change = { guildId, userId: m.userId, username: m.username, globalName: m.globalName, nickname: m.nickname, roleIds: m.roleIds, timedOutUntil: m.timedOutUntil };
  if (await updatePlatformMember(trx, change)) return 'updated';
  if (m.userId !== guild.bot_user_id) return 'unknown';
  await upsertPlatformMember(trx, { guildId, userId: m.userId, username: m.username, globalName: m.globalName, nickname: m.nickname, bot: true, roleIds: m.roleIds });
  return 'updated';
}

/**
 * The bot was removed from the server (Discord's GUILD_DELETE without `unavailable`): the server is marked left and
 * nothing is deleted; nothing more is asked of the platform there until the bot is added again (its GUILD_CREATE).
 */
export async function markGuildLeft(trx: Kysely<Database>, guildId: string, at: Date): Promise<boolean> {
  return markPlatformGuildLeft(trx, guildId, at);
}
