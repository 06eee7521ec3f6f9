import type { ModActionType } from '../../db/moderation/tables.js';
import type { RefusalCode } from '../core/errorCodes.js';

/**
 * Who may do what to whom (spec: Moderation; DESIGN: permission and hierarchy rules live in pure domain
 * code so every platform adapter shares them). Permission bits are the platform's (Discord's values).
 */
export type { ModActionType };
export const MOD_ACTIONS = ['warn', 'timeout', 'untimeout', 'kick', 'ban', 'unban'] as const satisfies readonly ModActionType[];

export const PERMISSION = {
  kickMembers: 1n << 1n,
  banMembers: 1n << 2n,
  administrator: 1n << 3n,
  moderateMembers: 1n << 40n,
} as const;

/** Warnings need no platform permission of their own; they ask for the one timeouts need. */
export const REQUIRED_PERMISSION: Record<ModActionType, bigint> = {
  warn: PERMISSION.moderateMembers,
  timeout: PERMISSION.moderateMembers,
  untimeout: PERMISSION.moderateMembers,
  kick: PERMISSION.kickMembers,
  ban: PERMISSION.banMembers,
  unban: PERMISSION.banMembers,
};

/** Codes a refused action ends with, in ModAction.error. */
export type ModRefusal = Extract<
  RefusalCode,
  | 'MODERATOR_MISSING_PERMISSION'
  | 'BOT_MISSING_PERMISSIONS'
  | 'HIERARCHY_HIGHER'
  | 'INVALID_TARGET'
  | 'MEMBER_NOT_FOUND'
  | 'NOT_BANNED'
  | 'ALREADY_BANNED'
  | 'NOT_TIMED_OUT'
>;

export interface RoleRank {
  id: string;
  position: number;
  permissions: bigint;
}

export interface Holder {
  userId: string;
  roleIds: string[];
}

export interface ModerationSituation {
  action: ModActionType;
  guildId: string;
  ownerId: string;
  botUserId: string;
  roles: RoleRank[];
  /** The member the action is taken for; undefined when they left. Null: the bot acts on its own (escalation). */
  moderator: Holder | undefined | null;
  bot: Holder;
  /** Undefined when the target is not a member. `username`: for the leave a kick or ban makes (the rules ignore it). */
  target: (Holder & { timedOutUntil: Date | null; username?: string | null }) | undefined;
  targetUserId: string;
  targetBanned: boolean;
  now: Date;
}

const NEEDS_MEMBER: ReadonlySet<ModActionType> = new Set(['warn', 'timeout', 'untimeout', 'kick']);

function rolesOf(s: ModerationSituation, holder: Holder): RoleRank[] {
  // The everyone role (id = guild id) applies to every member without being listed.
  const ids = new Set([...holder.roleIds, s.guildId]);
  return s.roles.filter((r) => ids.has(r.id));
}

export function permissionsOf(s: ModerationSituation, holder: Holder): bigint {
  if (holder.userId === s.ownerId) return ~0n;
  const bits = rolesOf(s, holder).reduce((acc, r) => acc | r.permissions, 0n);
  return bits & PERMISSION.administrator ? ~0n : bits;
}

export function highestPosition(s: ModerationSituation, holder: Holder): number {
  if (holder.userId === s.ownerId) return Number.POSITIVE_INFINITY;
  return Math.max(0, ...rolesOf(s, holder).map((r) => r.position));
}

const holds = (s: ModerationSituation, holder: Holder, permission: bigint) => (permissionsOf(s, holder) & permission) === permission;

/** Why the action must not run, or undefined when it may. Checked in this order; the first reason wins. */
export function moderationRefusal(s: ModerationSituation): ModRefusal | undefined {
  const permission = REQUIRED_PERMISSION[s.action];
  if (s.moderator === undefined) return 'MODERATOR_MISSING_PERMISSION';
  if (s.moderator && !holds(s, s.moderator, permission)) return 'MODERATOR_MISSING_PERMISSION';
  if (!holds(s, s.bot, permission)) return 'BOT_MISSING_PERMISSIONS';
  if (s.targetUserId === s.botUserId || s.targetUserId === s.moderator?.userId) return 'INVALID_TARGET';
  if (s.targetUserId === s.ownerId) return 'HIERARCHY_HIGHER';
  if (s.action === 'unban') return s.targetBanned ? undefined : 'NOT_BANNED';
  if (s.action === 'ban' && s.targetBanned) return 'ALREADY_BANNED';
  if (!s.target) return NEEDS_MEMBER.has(s.action) ? 'MEMBER_NOT_FOUND' : undefined;
  if (s.action === 'untimeout' && !(s.target.timedOutUntil && s.target.timedOutUntil > s.now)) return 'NOT_TIMED_OUT';
  const targetRank = highestPosition(s, s.target);
  if (s.moderator && targetRank >= highestPosition(s, s.moderator)) return 'HIERARCHY_HIGHER';
  if (targetRank >= highestPosition(s, s.bot)) return 'HIERARCHY_HIGHER';
  return undefined;
}
