import type { Kysely } from 'kysely';
import { askPurgeBy, claimPurgeRequest, planNextPurge } from '../../db/retention/purgePlan.js';
import type { Database } from '../../db/schema.js';
import { atMostEvery } from '../core/atMostEvery.js';
import type { Clock } from '../core/clock.js';
import { RETENTION_DAYS_BY_PLAN } from '../core/retention.js';
import { wakeDispatcher, type Dispatcher } from '../core/temporal/dispatcherWake.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { PURGE_SLACK_MS, retentionPurgeDispatcherId, retentionPurgeDispatcherWorkflow, retentionPurgeWakeSignal } from './ids.js';
import { CLOCK_STEPS, firstDueOf, PURGE_STEPS } from './retentionSteps.js';

/**
 * The shortest retention of a kind kept per plan: a record of such a kind written after a pass comes due no sooner,
 * so the dispatcher never sleeps longer (the start relay watches the kinds kept less long, CLOCK_STEPS).
 */
export const PLAN_HORIZON_MS = Math.min(...Object.values(RETENTION_DAYS_BY_PLAN).flatMap((days) => Object.values(days))) * 24 * 3_600_000;

const DISPATCHER: Dispatcher = {
  workflow: retentionPurgeDispatcherWorkflow,
  workflowId: retentionPurgeDispatcherId,
  wake: retentionPurgeWakeSignal,
  operation: 'maintenance.purge',
  summary: 'Purges the records past their retention (docs/retention.md): asleep until the first comes due',
};

/**
 * Tells the purge dispatcher (workflows/retentionPurgeDispatcher.ts) to run a pass in `dueInMs`, starting it if it is
 * not running (signal-with-start: one action, started or not).
 */
export const wakeRetentionPurger = (temporal: TemporalGateway, dueInMs: number) => wakeDispatcher(temporal, DISPATCHER, { inMs: dueInMs });

/** The worker's start: a pass now, for what came due while no dispatcher ran (or a pass a crash cut short left). */
export const wakeRetentionPurgerAtStart = (temporal: TemporalGateway) => wakeRetentionPurger(temporal, 0);

/**
 * After a pass: when the next is due, stored as planned and answered in ms from now. The first stored record's due
 * time plus PURGE_SLACK_MS (what comes due within that hour goes in the same pass), at most PLAN_HORIZON_MS away; a
 * pass cut short by its budget goes on PURGE_SLACK_MS later, as the hourly schedule did.
 */
export async function planNextPass({ db, clock }: { db: Kysely<Database>; clock: Clock }, complete: boolean): Promise<number> {
  const now = clock.now().getTime();
  const first = complete ? await firstDueOf(db, PURGE_STEPS) : clock.now();
  const at = first === null ? now + PLAN_HORIZON_MS : Math.min(Math.max(first.getTime(), now) + PURGE_SLACK_MS, now + PLAN_HORIZON_MS);
  await planNextPurge(db, new Date(at));
  return at - now;
}

/**
 * The start relay's pass (every 2 s in each worker): a pass asked for (a plan changed, or the look below found a
 * record coming due) is sent as one wake; with none asked, one primary-key probe and no Temporal call.
 */
export async function relayPurgeRequests({ db, temporal, clock }: { db: Kysely<Database>; temporal: TemporalGateway; clock: Clock }): Promise<number> {
  const sent = await claimPurgeRequest(db, (at) => wakeRetentionPurger(temporal, at.getTime() - clock.now().getTime()));
  return sent ? 1 : 0;
}

/**
 * The start relay's look, at most once a minute in each worker, for a record of a kind kept a fixed time (or until
 * its own end) that comes due before the planned pass: written since that pass was planned, it asks for a pass at
 * its due time plus PURGE_SLACK_MS. An index probe per kind; no Temporal call (relayPurgeRequests sends it).
 */
export const relayRecordsComingDue = (everyMs = 60_000) =>
  atMostEvery(everyMs, async ({ db }: { db: Kysely<Database>; clock: Clock }, now) => {
    const first = await firstDueOf(db, CLOCK_STEPS);
    if (first !== null) await askPurgeBy(db, new Date(Math.max(first.getTime(), now.getTime()) + PURGE_SLACK_MS));
    return 0;
  });

