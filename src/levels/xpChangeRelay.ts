import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listUnstartedXpChanges, markXpWorkflowStarted } from '../../db/levels/xpChanges.js';
import type { Clock } from '../core/clock.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { startXpChangeWorkflow } from './xpChangeWorkflow.js';

/** Starts the workflow of every accepted XP change whose start was lost; returns how many. */
export async function relayUnstartedXpChanges(
  deps: { db: Kysely<Database>; temporal: TemporalGateway; clock: Clock },
  options = { graceMs: 5_000, batch: 200 },
): Promise<number> {
  const olderThan = new Date(deps.clock.now().getTime() - options.graceMs);
  const changes = await listUnstartedXpChanges(deps.db, olderThan, options.batch);
  for (const change of changes) {
    await startXpChangeWorkflow(deps.temporal, change);
    await markXpWorkflowStarted(deps.db, change.changeId, deps.clock.now());
  }
  return changes.length;
}
