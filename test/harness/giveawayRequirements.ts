import type { GiveawayRequirements } from '../../db/giveaways/giveaways.js';

/** A giveaway's requirements when none is set: anyone may enter, for free, with one ticket. */
export const NO_REQUIREMENTS: GiveawayRequirements = {
  roleIds: [],
  roleMode: 'any',
  blockedRoleIds: [],
  minAccountAgeDays: 0,
  minMemberDays: 0,
  minLevel: 0,
  entryCost: 0,
  bonusRoles: [],
};
