import type { Kysely } from 'kysely';
import { addInviteMilestone, listInviteMilestones, removeInviteMilestone, type InviteMilestone } from '../../db/invites/milestones.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { InviteRefusal } from './inviteRefusal.js';

export const MAX_MILESTONE_INVITES = 1_000_000;

/**
 * Staff add or remove a milestone reward (a role at an invite count) with its audit row, and get the server's
 * milestones back. Members who already reached an added milestone get it with their next change that raises invites.
 */
export async function configureMilestone(
  trx: Kysely<Database>,
  c: { guildId: string; milestone: InviteMilestone; action: 'add' | 'remove'; actor: AuditActor },
): Promise<InviteMilestone[]> {
  if (c.action === 'add') await addInviteMilestone(trx, c.guildId, c.milestone);
  else if (!(await removeInviteMilestone(trx, c.guildId, c.milestone))) {
    throw new InviteRefusal('MILESTONE_NOT_FOUND', `Guild ${c.guildId} has no milestone of role ${c.milestone.roleId} at ${c.milestone.invites} invites.`);
  }
  await writeAudit(trx, {
    guildId: c.guildId,
    actor: c.actor,
    action: c.action === 'add' ? 'invites.milestoneAdd' : 'invites.milestoneRemove',
    target: { type: 'role', id: c.milestone.roleId },
    data: { invites: c.milestone.invites },
  });
  return listInviteMilestones(trx, c.guildId);
}

/** Staff change a milestone (its count or its role): the old one removed and the new one added, audited as both. */
export async function changeMilestone(
  trx: Kysely<Database>,
  c: { guildId: string; from: InviteMilestone; to: InviteMilestone; actor: AuditActor },
): Promise<InviteMilestone[]> {
  await configureMilestone(trx, { guildId: c.guildId, milestone: c.from, action: 'remove', actor: c.actor });
  return configureMilestone(trx, { guildId: c.guildId, milestone: c.to, action: 'add', actor: c.actor });
}
