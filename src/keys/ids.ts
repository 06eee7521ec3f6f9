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

export const purgeExpiredRecordsWorkflow: WorkflowRef<() => Promise<PurgeResult>> = { name: 'purgeExpiredRecords' };
