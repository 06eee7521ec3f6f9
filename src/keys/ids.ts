import type { DispatcherInput, DispatcherWake } from '../core/temporal/dispatcherProtocol.js';
import type { WorkflowRef } from '../core/temporal/workflowRef.js';

// Pure: the workflows import this file, so it holds ids and types only.

export interface PurgeResult {
  idempotencyRecords: number;
  rateLimitWindows: number;
  /** Absent in runs recorded before the console existed. */
  consoleSessions?: number;
  /** Absent in runs recorded before the bot purged its claims. */
  countedMessages?: number;
  handledInteractions?: number;
}

/** Tests make a run small; the schedule's runs take PURGE_LIMITS (src/core/retention.ts). */
export interface RetentionPurgeOptions {
  batchRows?: number;
  runBudgetMs?: number;
  /** Percent of the run's time spent deleting (100: batches back to back). */
  dutyPercent?: number;
  /** Rows deleted per second at most, over the run (the rest after a batch lengthened to keep to it). */
  rowsPerSecond?: number;
}

/** A run of the retention purge (patch `retention-purge` on): rows deleted per record kind. */
export interface RetentionPurgeResult {
  purged: Record<string, number>;
  batches: number;
  /** False when the run's time ran out first: the next run goes on where the records still are. */
  complete: boolean;
}

export const purgeExpiredRecordsWorkflow: WorkflowRef<(options?: RetentionPurgeOptions) => Promise<PurgeResult | RetentionPurgeResult>> = {
  name: 'purgeExpiredRecords',
};

/** A pass of the dispatcher: the purge's result, and how long until the next pass is due. */
export interface RetentionPurgePass extends RetentionPurgeResult {
  nextPassInMs: number;
}

/** The one long-lived run that purges records past their retention: asleep until the first stored one comes due. */
export const retentionPurgeDispatcherWorkflow: WorkflowRef<(input: DispatcherInput) => Promise<void>> = {
  name: 'retentionPurgeDispatcher',
};

/** One dispatcher per task queue: the workers of one deployment share it (tests and benches, each their own). */
export const retentionPurgeDispatcherId = (taskQueue: string) => `maintenance/purge-dispatcher/${taskQueue}`;

/** A pass is wanted in `dueInMs` (a plan changed, a record written comes due, a worker started), unless one is planned sooner. */
export const retentionPurgeWakeSignal = { type: 'signal', name: 'wake' } as DispatcherWake;

/**
 * How long after its due time a record may wait for its pass: the hour the retired schedule gave, so the records
 * coming due within an hour are purged together (one pass an hour at most while they come due).
 */
export const PURGE_SLACK_MS = 3_600_000;
