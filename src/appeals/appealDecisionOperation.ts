import type { Kysely } from 'kysely';
import { listUndispatchedDecisions, markDecisionDispatched } from '../../db/shared/decisionDispatch.js';
import type { Database } from '../../db/schema.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import type { Operation } from '../core/temporal/operation.js';
import { appealDecisionWorkflow, appealDecisionWorkflowId, type AppealDecisionInput } from './ids.js';

type AppealDecisionWorkflow = WorkflowOf<typeof appealDecisionWorkflow>;

/** The effects of a decided appeal, by workflow `appeal-decision/<guild>/<number>`; `applying` until done. */
export const appealDecisionOperation: Operation<AppealDecisionInput, AppealDecisionWorkflow, Kysely<Database>> = {
  workflow: appealDecisionWorkflow,
  workflowId: (d) => appealDecisionWorkflowId(d.guildId, d.number),
  args: (d) => [{ guildId: d.guildId, number: d.number, decision: d.decision }],
  operation: (d) => `appeals.${d.decision === 'approved' ? 'approve' : 'reject'}`,
  guildId: (d) => d.guildId,
  summary: (d, by) => `Appeal #${d.number} ${d.decision}${by}`,
  listUnstarted: async (db, olderThan, limit) =>
    (await listUndispatchedDecisions(db, 'appeals', olderThan, limit)).map((d) => ({
      guildId: d.guildId,
      number: d.number,
      decision: d.status as 'approved' | 'rejected',
    })),
  markStarted: (db, d, at) => markDecisionDispatched(db, 'appeals', d.guildId, d.number, at),
};
