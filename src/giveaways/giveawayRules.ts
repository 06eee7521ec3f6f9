import type { GiveawayRequirements } from '../../db/giveaways/giveaways.js';
import { snowflakeCreatedAt } from '../core/snowflake.js';

export const GIVEAWAY_STATUSES = ['scheduled', 'active', 'ended', 'cancelled'] as const;
export const MIN_DURATION_SECONDS = 60;
export const MAX_DURATION_SECONDS = 5_184_000;

const DAY_MS = 86_400_000;
export interface Entrant {
  roleIds: string[];
  bot: boolean;
  joinedAt: Date | null;
  userId: string;
  level: number;
}

export type EntryRefusalCode = 'BOT_ACCOUNT' | 'MISSING_ROLE' | 'BLOCKED_ROLE' | 'ACCOUNT_TOO_NEW' | 'MEMBER_TOO_NEW' | 'LEVEL_TOO_LOW';

/** The first requirement the member fails, with a sentence for the bot's reply; undefined when they may enter. */
export function entryRefusal(r: GiveawayRequirements, m: Entrant, now: Date): { code: EntryRefusalCode; message: string } | undefined {
  if (m.bot) return { code: 'BOT_ACCOUNT', message: 'Bot accounts cannot enter giveaways.' };
  const held = new Set(m.roleIds);
  const blocked = r.blockedRoleIds.filter((id) => held.has(id));
  if (blocked.length > 0) return { code: 'BLOCKED_ROLE', message: `Members with role ${blocked[0]} cannot enter.` };
  if (r.roleIds.length > 0) {
    const holds = r.roleMode === 'all' ? r.roleIds.every((id) => held.has(id)) : r.roleIds.some((id) => held.has(id));
    if (!holds) return { code: 'MISSING_ROLE', message: `Entering needs ${r.roleMode === 'all' ? 'all' : 'one'} of the roles ${r.roleIds.join(', ')}.` };
  }
  if (now.getTime() - snowflakeCreatedAt(m.userId).getTime() < r.minAccountAgeDays * DAY_MS) {
    return { code: 'ACCOUNT_TOO_NEW', message: `The account must be at least ${r.minAccountAgeDays} days old.` };
  }
  if (r.minMemberDays > 0 && (m.joinedAt === null || now.getTime() - m.joinedAt.getTime() < r.minMemberDays * DAY_MS)) {
    return { code: 'MEMBER_TOO_NEW', message: `Entering needs at least ${r.minMemberDays} days in the server.` };
  }
  if (m.level < r.minLevel) return { code: 'LEVEL_TOO_LOW', message: `Entering needs level ${r.minLevel} (you are level ${m.level}).` };
  return undefined;
}

/** Tickets of an entrant: the entries of the highest bonus role they hold, else 1 (bonus roles do not add up). */
export function ticketsFor(r: GiveawayRequirements, roleIds: string[]): number {
  const held = new Set(roleIds);
  return r.bonusRoles.reduce((best, b) => (held.has(b.roleId) && b.entries > best ? b.entries : best), 1);
}

/** Still eligible at draw time: a member, and holding none of the blocked roles. */
export const eligibleAtDraw = (r: GiveawayRequirements, member: { roleIds: string[] } | undefined): boolean =>
  member !== undefined && !r.blockedRoleIds.some((id) => member.roleIds.includes(id));
