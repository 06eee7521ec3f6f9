import type { ModActionType, ModerationSituation } from './refusalRules.js';
import type { Platform } from '../core/platform.js';

/**
 * Everything the hierarchy rules look at, read from the platform at the moment the action runs (a
 * creator may have lost their role since the key was made). `moderatorId` null: the bot acts alone.
 */
export async function readModerationSituation(
  platform: Platform,
  a: { guildId: string; action: ModActionType; targetUserId: string; moderatorId: string | null; now: Date },
): Promise<ModerationSituation | undefined> {
  const guild = await platform.getGuild(a.guildId);
  if (!guild) return undefined;
  const [roles, bot, target, ban, moderator] = await Promise.all([
    platform.listRoles(a.guildId),
    platform.getMember(a.guildId, guild.botUserId),
    platform.getMember(a.guildId, a.targetUserId),
    platform.getBan(a.guildId, a.targetUserId),
    a.moderatorId ? platform.getMember(a.guildId, a.moderatorId) : Promise.resolve(null),
  ]);
  return {
    action: a.action,
    guildId: a.guildId,
    ownerId: guild.ownerId,
    botUserId: guild.botUserId,
    roles: roles.map((r) => ({ id: r.id, position: r.position, permissions: r.permissions })),
    moderator: moderator && { userId: moderator.userId, roleIds: moderator.roleIds },
    bot: { userId: guild.botUserId, roleIds: bot?.roleIds ?? [] },
    target: target && { userId: target.userId, roleIds: target.roleIds, timedOutUntil: target.timedOutUntil, username: target.username },
    targetUserId: a.targetUserId,
    targetBanned: ban !== undefined,
    now: a.now,
  };
}
