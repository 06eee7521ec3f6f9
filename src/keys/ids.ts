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
