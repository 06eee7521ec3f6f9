import type { Kysely } from 'kysely';
import { listUndispatchedDecisions, markDecisionDispatched } from '../../db/shared/decisionDispatch.js';
import type { Database } from '../../db/schema.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import type { Operation } from '../core/temporal/operation.js';
import { applicationDecisionWorkflow, applicationDecisionWorkflowId, type ApplicationDecisionInput } from './ids.js';

type ApplicationDecisionWorkflow = WorkflowOf<typeof applicationDecisionWorkflow>;

/** The effects of a decided submission, by workflow `application-decision/<guild>/<number>`; `applying` until done. */
export const applicationDecisionOperation: Operation<ApplicationDecisionInput, ApplicationDecisionWorkflow, Kysely<Database>> = {
  workflow: applicationDecisionWorkflow,
  workflowId: (d) => applicationDecisionWorkflowId(d.guildId, d.number),
  args: (d) => [{ guildId: d.guildId, number: d.number, decision: d.decision }],
  operation: () => 'applications.decide',
  guildId: (d) => d.guildId,
  summary: (d, by) => `Application #${d.number} ${d.decision}${by}`,
  listUnstarted: async (db, olderThan, limit) =>
    (await listUndispatchedDecisions(db, 'application_submissions', olderThan, limit)).map((d) => ({
      guildId: d.guildId,
      number: d.number,
      decision: d.status as 'accepted' | 'denied',
    })),
  markStarted: (db, d, at) => markDecisionDispatched(db, 'application_submissions', d.guildId, d.number, at),
};
