import type { Kysely } from 'kysely';
import { listUnstartedModActions, markModActionStarted } from '../../db/moderation/actions.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { startModActionWorkflow } from './modActionWorkflow.js';

/** Starts the workflow of every accepted moderation action whose start was lost; returns how many. */
export async function relayUnstartedModActions(
  deps: { db: Kysely<Database>; temporal: TemporalGateway; clock: Clock },
  options = { graceMs: 5_000, batch: 200 },
): Promise<number> {
  const olderThan = new Date(deps.clock.now().getTime() - options.graceMs);
  const actions = await listUnstartedModActions(deps.db, olderThan, options.batch);
  for (const action of actions) {
    await startModActionWorkflow(deps.temporal, action);
    await markModActionStarted(deps.db, action.actionId, deps.clock.now());
  }
  return actions.length;
}
