import type { GiveawayRequirements } from '../../db/giveaways/giveaways.js';
import { snowflakeCreatedAt } from '../core/snowflake.js';

export const GIVEAWAY_STATUSES = ['scheduled', 'active', 'ended', 'cancelled'] as const;
export const MIN_DURATION_SECONDS = 60;
export const MAX_DURATION_SECONDS = 5_184_000;

const DAY_MS = 86_400_000;
/**
 * How far the platform's clock may run ahead of ours: ids and join dates carry the platform's time, so an age
 * measured on our clock can come out up to this much short (or an id seem to come from the future).
 */
export const PLATFORM_CLOCK_SKEW_MS = 60_000;

/** At least `days` old at `now`, measured from a platform timestamp; 0 days is no requirement at all. */
const oldEnough = (since: Date, days: number, now: Date) => days === 0 || now.getTime() - since.getTime() + PLATFORM_CLOCK_SKEW_MS >= days * DAY_MS;
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
  if (!oldEnough(snowflakeCreatedAt(m.userId), r.minAccountAgeDays, now)) {
    return { code: 'ACCOUNT_TOO_NEW', message: `The account must be at least ${r.minAccountAgeDays} days old.` };
  }
  if (r.minMemberDays > 0 && (m.joinedAt === null || !oldEnough(m.joinedAt, r.minMemberDays, now))) {
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
