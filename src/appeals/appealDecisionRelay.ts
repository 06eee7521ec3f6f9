import type { Kysely } from 'kysely';
import { listUndispatchedDecisions, markAppealWorkflowStarted } from '../../db/appeals/appeals.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { startAppealDecisionWorkflow } from './appealDecisionWorkflow.js';

/** Starts the effects of every decided appeal whose start was lost; returns how many. */
export async function relayUndispatchedAppealDecisions(
  deps: { db: Kysely<Database>; temporal: TemporalGateway; clock: Clock },
  options = { graceMs: 5_000, batch: 200 },
): Promise<number> {
  const olderThan = new Date(deps.clock.now().getTime() - options.graceMs);
  const decisions = await listUndispatchedDecisions(deps.db, olderThan, options.batch);
  for (const d of decisions) {
    await startAppealDecisionWorkflow(deps.temporal, d);
    await markAppealWorkflowStarted(deps.db, d.guildId, d.number, deps.clock.now());
  }
  return decisions.length;
}
