import { describe, expect, it } from 'vitest';
import { dueMilestones } from '../../../src/invites/milestoneRules.js';

const ms = [
  { invites: 10, roleId: 'c' },
  { invites: 3, roleId: 'a' },
  { invites: 5, roleId: 'b' },
  { invites: 8, roleId: 'a' },
];

describe('dueMilestones', () => {
  it('lists the reached milestones lowest first', () => {
    expect(dueMilestones(ms, 5, [])).toEqual([
      { invites: 3, roleId: 'a' },
      { invites: 5, roleId: 'b' },
    ]);
  });

  it('skips roles granted before and grants a role configured twice once, at the lower count', () => {
    expect(dueMilestones(ms, 10, ['b'])).toEqual([
      { invites: 3, roleId: 'a' },
      { invites: 10, roleId: 'c' },
    ]);
    expect(dueMilestones(ms, 10, ['a', 'b', 'c'])).toEqual([]);
  });

  it('reaches nothing below the lowest milestone', () => {
    expect(dueMilestones(ms, 2, [])).toEqual([]);
    expect(dueMilestones([], 100, [])).toEqual([]);
  });
});
