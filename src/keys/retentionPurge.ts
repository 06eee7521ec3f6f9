import { setTimeout as delay } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { PURGE_LIMITS } from '../core/retention.js';
import type { RetentionPurgeOptions, RetentionPurgeResult } from './ids.js';
import { PURGE_STEPS, type PurgeStep } from './retentionSteps.js';

/** Where a run is: the activity heartbeats it after every batch, and a retried attempt goes on from it. */
export interface PurgeProgress {
  step: number;
  cursor: string;
  purged: Record<string, number>;
  batches: number;
  /** Whether a kind was left with rows to purge because its share of the run's time ran out. */
  cut: boolean;
}

export interface RetentionPurgeDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Aborted when Temporal cancels the activity: the run stops after its batch in progress. */
  signal?: AbortSignal;
  /** Called after every batch with the run's progress (the activity's heartbeat). */
  onProgress?: (progress: PurgeProgress) => void;
  steps?: readonly PurgeStep[];
}

const START: PurgeProgress = { step: 0, cursor: '', purged: {}, batches: 0, cut: false };

/**
 * Purges every kind past its retention in batches of `batchRows`, each one statement (one short transaction), within
 * `runBudgetMs`. Each kind gets at most an equal share of the time left, so a backlog of one kind (the first run on
 * a year of data) never starves the others; what a run leaves, the next hourly run takes. `from` is the progress of
 * an earlier attempt of the same run.
 */
export async function purgeRetention(deps: RetentionPurgeDeps, options: RetentionPurgeOptions = {}, from: PurgeProgress = START): Promise<RetentionPurgeResult> {
  const steps = deps.steps ?? PURGE_STEPS;
  const limit = options.batchRows ?? PURGE_LIMITS.batchRows;
  const limits = { dutyPercent: options.dutyPercent ?? PURGE_LIMITS.dutyPercent, rowsPerSecond: options.rowsPerSecond ?? PURGE_LIMITS.rowsPerSecond };
  const started = deps.clock.now();
  const runEnd = started.getTime() + (options.runBudgetMs ?? PURGE_LIMITS.runBudgetMs);
  const progress: PurgeProgress = { ...from, purged: { ...from.purged } };
  for (; progress.step < steps.length; progress.step++, progress.cursor = '') {
    const step = steps[progress.step]!;
    let now = deps.clock.now().getTime();
    const stepEnd = now + (runEnd - now) / (steps.length - progress.step);
    for (;;) {
      const batchStarted = performance.now();
      const { deleted, next } = await step.batch(deps.db, started, progress.cursor, limit);
      progress.purged[step.kind] = (progress.purged[step.kind] ?? 0) + deleted;
      progress.batches++;
      deps.onProgress?.(next === null ? { ...progress, step: progress.step + 1, cursor: '' } : { ...progress, cursor: next });
      if (deps.signal?.aborted) throw deps.signal.reason ?? new Error('retention purge cancelled');
      if (next === null) break;
      progress.cursor = next;
      const batchMs = performance.now() - batchStarted;
      // Never past the step's end: at a low rate (a small batch, a small `rowsPerSecond`) one rest would outlast the run.
      const restMs = Math.min(restAfterBatch({ ms: batchMs, rows: deleted }, limits), stepEnd - now - batchMs);
      if (restMs >= 1) await delay(restMs, undefined, { signal: deps.signal }).catch(() => {});
      if (deps.signal?.aborted) throw deps.signal.reason ?? new Error('retention purge cancelled');
      now = deps.clock.now().getTime();
      if (now >= stepEnd) {
        progress.cut = true;
        break;
      }
    }
  }
  return { purged: progress.purged, batches: progress.batches, complete: !progress.cut };
}

/**
 * How long the run rests after a batch so that deleting takes `dutyPercent` of its time and the run deletes at most
 * `rowsPerSecond`: back to back, a backlog's deletes took most of the database's time from the api's reads (bench
 * `purge`: balance reads p99 +53 % at 10,000,000 rows); and once batches stopped walking the deleted rows' index
 * entries again they ran twice as fast, and the reads felt the doubled rate of deletes more than the share of time.
 */
export function restAfterBatch(batch: { ms: number; rows: number }, limits: { dutyPercent: number; rowsPerSecond: number }): number {
  const forShare = (batch.ms * (100 - limits.dutyPercent)) / limits.dutyPercent;
  const forRate = (batch.rows * 1000) / limits.rowsPerSecond - batch.ms;
  return Math.max(forShare, forRate);
}
