import { describe, expect, it } from 'vitest';
import { planRewardRoles } from '../../../src/levels/rewardRoles.js';

// Listed out of level order on purpose: the plan must not depend on the order rewards are stored in.
const rewards = [
  { level: 10, roleId: 'role-10a' },
  { level: 20, roleId: 'role-20' },
  { level: 5, roleId: 'role-05' },
  { level: 10, roleId: 'role-10b' },
];
const ALL = ['role-05', 'role-10a', 'role-10b', 'role-20'];

describe('planRewardRoles, keeping previous rewards', () => {
  it.each([
    [0, [], ALL],
    [4, [], ALL],
    [5, ['role-05'], ['role-10a', 'role-10b', 'role-20']],
    [9, ['role-05'], ['role-10a', 'role-10b', 'role-20']],
    [10, ['role-05', 'role-10a', 'role-10b'], ['role-20']],
    [19, ['role-05', 'role-10a', 'role-10b'], ['role-20']],
    [20, ALL, []],
    [1_000_000, ALL, []],
  ])('at level %i holds %j and loses %j', (level, add, remove) => {
    expect(planRewardRoles(rewards, level, false)).toEqual({ add, remove });
  });
});

describe('planRewardRoles, removing previous rewards (only the highest reached)', () => {
  it.each([
    [0, [], ALL],
    [4, [], ALL],
    [5, ['role-05'], ['role-10a', 'role-10b', 'role-20']],
    [9, ['role-05'], ['role-10a', 'role-10b', 'role-20']],
    // Two rewards on the highest level reached are both held.
    [10, ['role-10a', 'role-10b'], ['role-05', 'role-20']],
    [19, ['role-10a', 'role-10b'], ['role-05', 'role-20']],
    [20, ['role-20'], ['role-05', 'role-10a', 'role-10b']],
    [1_000_000, ['role-20'], ['role-05', 'role-10a', 'role-10b']],
  ])('at level %i holds %j and loses %j', (level, add, remove) => {
    expect(planRewardRoles(rewards, level, true)).toEqual({ add, remove });
  });
});

describe('planRewardRoles edge cases', () => {
  it.each([false, true])('plans nothing without rewards (removePrevious %s)', (removePrevious) => {
    expect(planRewardRoles([], 50, removePrevious)).toEqual({ add: [], remove: [] });
  });

  it.each([
    [false, 0, ['zero'], ['five']],
    [true, 0, ['zero'], ['five']],
    [false, 5, ['five', 'zero'], []],
    [true, 5, ['five'], ['zero']],
  ])('handles a reward at level 0 (removePrevious %s, level %i)', (removePrevious, level, add, remove) => {
    const withZero = [
      { level: 0, roleId: 'zero' },
      { level: 5, roleId: 'five' },
    ];
    expect(planRewardRoles(withZero, level, removePrevious)).toEqual({ add, remove });
  });

  // The same role configured at two levels: once either level is held it is kept, never also removed.
  it.each([
    [false, 3, [], ['other', 'shared', 'ten']],
    [false, 7, ['shared'], ['other', 'ten']],
    [true, 7, ['shared'], ['other', 'ten']],
    [false, 10, ['shared', 'ten'], ['other']],
    [true, 10, ['shared', 'ten'], ['other']],
    [false, 12, ['other', 'shared', 'ten'], []],
    [true, 12, ['other'], ['shared', 'ten']],
  ])('never both adds and removes a role listed twice (removePrevious %s, level %i)', (removePrevious, level, add, remove) => {
    const duplicated = [
      { level: 5, roleId: 'shared' },
      { level: 10, roleId: 'shared' },
      { level: 10, roleId: 'ten' },
      { level: 12, roleId: 'other' },
    ];
    expect(planRewardRoles(duplicated, level, removePrevious)).toEqual({ add, remove });
  });

  it('lists every configured role exactly once across add and remove, sorted', () => {
    const plan = planRewardRoles(rewards, 10, true);
    expect([...plan.add, ...plan.remove].sort()).toEqual(ALL);
    expect(plan.add).toEqual([...plan.add].sort());
    expect(plan.remove).toEqual([...plan.remove].sort());
  });

  it('does not change the rewards it is given', () => {
    const input = rewards.map((r) => ({ ...r }));
    planRewardRoles(input, 10, true);
    expect(input).toEqual(rewards);
  });
});
