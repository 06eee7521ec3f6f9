import type { Kysely } from 'kysely';
import { listUnstartedEvents, markFanoutStarted } from '../../db/shared/events.js';
import type { Database } from '../../db/schema.js';
import type { Operation } from '../core/temporal/operation.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import { eventFanoutWorkflow, fanoutWorkflowId } from './ids.js';

export interface FanoutTarget {
  id: string;
  guildId: string;
  type: string;
}

/**
 * Everything one committed event sets off (webhook deliveries, the bank log line), by workflow
 * `event/<eventId>`: a closed run is never re-run, so the start after commit and the relay's cannot both deliver.
 */
export const fanoutOperation: Operation<FanoutTarget, WorkflowOf<typeof eventFanoutWorkflow>, Kysely<Database>> = {
  workflow: eventFanoutWorkflow,
  workflowId: (e) => fanoutWorkflowId(e.id),
  args: (e) => [{ eventId: e.id, type: e.type, guildId: e.guildId }],
  operation: () => 'event.fanout',
  guildId: (e) => e.guildId,
  summary: (e) => `Fan out ${e.type} ${e.id} of guild ${e.guildId}`,
  listUnstarted: listUnstartedEvents,
  markStarted: (db, e, at) => markFanoutStarted(db, [e.id], at),
};
