import type { Kysely } from 'kysely';
import { listUnstartedEvents, markFanoutStarted } from '../../db/shared/events.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { startEventFanout, type FanoutTarget } from './fanout.js';

export interface RelayDeps {
  db: Kysely<Database>;
  temporal: TemporalGateway;
  clock: Clock;
}

/**
 * Starts the fan-out of each event and records that it started. The api calls it right after its
 * commit; the relay loop calls it for events older than a grace period whose start was lost (a crash
 * or Temporal outage between commit and start).
 */
export async function startFanouts(deps: RelayDeps, events: FanoutTarget[]): Promise<void> {
  for (const event of events) await startEventFanout(deps.temporal, event);
  await markFanoutStarted(deps.db, events.map((e) => e.id), deps.clock.now());
}

/** One pass of the relay; returns how many events it started. */
export async function relayUnstartedEvents(deps: RelayDeps, options = { graceMs: 5_000, batch: 200 }): Promise<number> {
  const olderThan = new Date(deps.clock.now().getTime() - options.graceMs);
  const events = await listUnstartedEvents(deps.db, olderThan, options.batch);
  await startFanouts(deps, events);
  return events.length;
}
