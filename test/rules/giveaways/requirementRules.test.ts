import { describe, expect, it } from 'vitest';
import type { GiveawayRequirements } from '../../../db/giveaways/giveaways.js';
import { snowflakeCreatedAt } from '../../../src/core/snowflake.js';
import { eligibleAtDraw, entryRefusal, ticketsFor } from '../../../src/giveaways/giveawayRules.js';
import { NO_REQUIREMENTS } from '../../harness/giveawayRequirements.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const DAY = 86_400_000;
const idCreatedDaysAgo = (days: number) => String((BigInt(Math.round(NOW.getTime() - days * DAY)) - 1_420_070_400_000n) << 22n);
const SECOND_IN_DAYS = 1 / 86_400;

const member = (o: Partial<{ roleIds: string[]; bot: boolean; joinedAt: Date | null; userId: string; level: number }> = {}) => ({
  roleIds: [],
  bot: false,
  joinedAt: new Date(NOW.getTime() - 30 * DAY),
  userId: idCreatedDaysAgo(365),
  level: 0,
  ...o,
});

describe('entry requirements', () => {
  it('reads the account creation time from the user id', () => {
    expect(snowflakeCreatedAt(idCreatedDaysAgo(10)).getTime()).toBe(NOW.getTime() - 10 * DAY);
  });

  it.each<[string, Partial<GiveawayRequirements>, ReturnType<typeof member>, string | undefined]>([
    ['no requirement', {}, member(), undefined],
    ['a bot account', {}, member({ bot: true }), 'BOT_ACCOUNT'],
    ['roleMode any: one of the roles', { roleIds: ['a', 'b'] }, member({ roleIds: ['b'] }), undefined],
    ['roleMode any: none of the roles', { roleIds: ['a', 'b'] }, member({ roleIds: ['c'] }), 'MISSING_ROLE'],
    ['roleMode all: every role', { roleIds: ['a', 'b'], roleMode: 'all' }, member({ roleIds: ['a', 'b', 'c'] }), undefined],
    ['roleMode all: one missing', { roleIds: ['a', 'b'], roleMode: 'all' }, member({ roleIds: ['a'] }), 'MISSING_ROLE'],
    ['a blocked role (even with the required one)', { roleIds: ['a'], blockedRoleIds: ['x'] }, member({ roleIds: ['a', 'x'] }), 'BLOCKED_ROLE'],
    ['an account exactly old enough', { minAccountAgeDays: 30 }, member({ userId: idCreatedDaysAgo(30) }), undefined],
    ['an account a day too young', { minAccountAgeDays: 30 }, member({ userId: idCreatedDaysAgo(29) }), 'ACCOUNT_TOO_NEW'],
    // Zero means no requirement: an id a little ahead of our clock (the platform's clock runs ahead) is no refusal.
    ['minAccountAgeDays 0, an id 5 s in the future', { minAccountAgeDays: 0 }, member({ userId: idCreatedDaysAgo(-5 * SECOND_IN_DAYS) }), undefined],
    ['minAccountAgeDays 0, an id a day in the future', { minAccountAgeDays: 0 }, member({ userId: idCreatedDaysAgo(-1) }), undefined],
    // Clock skew of up to a minute between the platform and the service never refuses, whatever the requirement.
    ['an account 5 s short of 30 days', { minAccountAgeDays: 30 }, member({ userId: idCreatedDaysAgo(30 - 5 * SECOND_IN_DAYS) }), undefined],
    ['an account 60 s short of 1 day', { minAccountAgeDays: 1 }, member({ userId: idCreatedDaysAgo(1 - 60 * SECOND_IN_DAYS) }), undefined],
    ['an account 61 s short of 1 day', { minAccountAgeDays: 1 }, member({ userId: idCreatedDaysAgo(1 - 61 * SECOND_IN_DAYS) }), 'ACCOUNT_TOO_NEW'],
    ['a member long enough', { minMemberDays: 30 }, member(), undefined],
    ['a member too recent', { minMemberDays: 31 }, member(), 'MEMBER_TOO_NEW'],
    ['a member without a join date', { minMemberDays: 1 }, member({ joinedAt: null }), 'MEMBER_TOO_NEW'],
    ['a member 60 s short of 30 days (clock skew)', { minMemberDays: 30 }, member({ joinedAt: new Date(NOW.getTime() - 30 * DAY + 60_000) }), undefined],
    ['a member 61 s short of 30 days', { minMemberDays: 30 }, member({ joinedAt: new Date(NOW.getTime() - 30 * DAY + 61_000) }), 'MEMBER_TOO_NEW'],
    ['the level reached', { minLevel: 5 }, member({ level: 5 }), undefined],
    ['a level too low', { minLevel: 5 }, member({ level: 4 }), 'LEVEL_TOO_LOW'],
  ])('%s', (_case, r, m, code) => {
    expect(entryRefusal({ ...NO_REQUIREMENTS, ...r }, m, NOW)?.code).toBe(code);
  });

  it('bonus roles: the highest one held counts, they do not add up; none held: one ticket', () => {
    const r = { ...NO_REQUIREMENTS, bonusRoles: [{ roleId: 'a', entries: 3 }, { roleId: 'b', entries: 5 }, { roleId: 'c', entries: 2 }] };
    expect(ticketsFor(r, ['a', 'b', 'c'])).toBe(5);
    expect(ticketsFor(r, ['c'])).toBe(2);
    expect(ticketsFor(r, ['z'])).toBe(1);
  });

  it('at draw time: a member without a blocked role is eligible; one who left or took a blocked role is not', () => {
    const r = { ...NO_REQUIREMENTS, blockedRoleIds: ['x'] };
    expect(eligibleAtDraw(r, { roleIds: ['a'] })).toBe(true);
    expect(eligibleAtDraw(r, { roleIds: ['a', 'x'] })).toBe(false);
    expect(eligibleAtDraw(r, undefined)).toBe(false);
  });
});
