import type { Kysely } from 'kysely';
import { listUnstartedMilestoneChecks, markMilestoneCheckStarted, type MilestoneCheckRecord } from '../../db/invites/milestones.js';
import type { Database } from '../../db/schema.js';
import type { Operation } from '../core/temporal/operation.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import { inviteMilestonesWorkflow, inviteMilestonesWorkflowId } from './ids.js';

type InviteMilestonesWorkflow = WorkflowOf<typeof inviteMilestonesWorkflow>;

/** Milestone rewards after a change that reached one, by workflow `invite-milestones/<guild>/<checkId>`. */
export const milestoneOperation: Operation<MilestoneCheckRecord, InviteMilestonesWorkflow, Kysely<Database>> = {
  workflow: inviteMilestonesWorkflow,
  workflowId: (c) => inviteMilestonesWorkflowId(c.guildId, c.id),
  args: (c) => [{ guildId: c.guildId, userId: c.userId, checkId: c.id }],
  operation: () => 'invites.milestones',
  guildId: (c) => c.guildId,
  summary: (c, by) => `Invite milestone rewards for ${c.userId}${by}`,
  listUnstarted: listUnstartedMilestoneChecks,
  markStarted: (db, c, at) => markMilestoneCheckStarted(db, c.id, at),
};
