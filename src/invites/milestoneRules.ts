import type { InviteMilestone } from '../../db/invites/milestones.js';

/**
 * Milestones a member with `invites` has reached and not been granted yet, lowest first, one per role (a role
 * configured at two counts is granted once, at the lower). Roles are never taken back when the count drops.
 */
export function dueMilestones(milestones: readonly InviteMilestone[], invites: number, grantedRoleIds: readonly string[]): InviteMilestone[] {
  const seen = new Set(grantedRoleIds);
  const due: InviteMilestone[] = [];
  for (const m of [...milestones].sort((a, b) => a.invites - b.invites || a.roleId.localeCompare(b.roleId))) {
    if (m.invites > invites || seen.has(m.roleId)) continue;
    seen.add(m.roleId);
    due.push(m);
  }
  return due;
}
