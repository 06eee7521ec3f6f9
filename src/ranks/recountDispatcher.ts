import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { claimUnwokenMarks } from '../../db/shared/rankMarks.js';
import { atMostEvery } from '../core/atMostEvery.js';
import type { Clock } from '../core/clock.js';
import { wakeDispatcher, type Dispatcher } from '../core/temporal/dispatcherWake.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { markGrownServers } from './recountDirty.js';
import { RECOUNT_BATCH_MS, rankRecountDispatcherId, rankRecountDispatcherWorkflow, rankRecountWakeSignal } from './ids.js';

const DISPATCHER: Dispatcher = {
  workflow: rankRecountDispatcherWorkflow,
  workflowId: rankRecountDispatcherId,
  wake: rankRecountWakeSignal,
  operation: 'maintenance.ranks',
  summary: 'Recounts the rank snapshots of changed servers: asleep while none changed',
};

/**
 * Tells the recount dispatcher (workflows/rankRecountDispatcher.ts) to run a pass in `dueInMs`, starting it if it is
 * not running (signal-with-start: one action, started or not).
 */
export const wakeRankRecounter = (temporal: TemporalGateway, dueInMs: number) => wakeDispatcher(temporal, DISPATCHER, { inMs: dueInMs });

/**
 * The worker's start: a pass now, for marks a crash left (taken and not recounted, or dirty with a wake that never
 * came) and snapshots an emptied database lost.
 */
export const wakeRankRecounterAtStart = (temporal: TemporalGateway) => wakeRankRecounter(temporal, 0);

/**
 * The start relay's pass (every 2 s in each worker, PostgreSQL only): a server marked dirty since the last wake wakes
 * the dispatcher for a pass in a minute. However many servers flipped, one signal; with none dirty, nothing is sent.
 */
export async function relayRankWakes({ db, temporal }: { db: Kysely<Database>; temporal: TemporalGateway }): Promise<number> {
  const covered = await claimUnwokenMarks(db, () => wakeRankRecounter(temporal, RECOUNT_BATCH_MS));
  return covered > 0 ? 1 : 0;
}

/**
 * The start relay's look for servers grown past a board's threshold, at most once per `everyMs` in each worker (the
 * minute the retired schedules looked at): it marks them dirty, and relayRankWakes wakes the dispatcher for their
 * first snapshot. A query, no Temporal call.
 */
export const relayGrownServers = (everyMs = RECOUNT_BATCH_MS) =>
  atMostEvery(everyMs, async ({ db }: { db: Kysely<Database>; clock: Clock }, now) => {
    await markGrownServers(db, now);
    // Marks are not starts: the wake that follows is counted by relayRankWakes.
    return 0;
  });
