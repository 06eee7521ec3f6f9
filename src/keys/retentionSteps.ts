import type { Kysely } from 'kysely';
import { purgeEndedSessions } from '../../db/console/sessions.js';
import {
  purgeCountedMessagesBatch,
  purgeFlowRunQuotasBatch,
  purgeHandledInteractionsBatch,
  purgeIdempotencyRecordsBatch,
  purgeLevelUpEffectsBatch,
  purgeRateLimitWindowsBatch,
} from '../../db/retention/bookkeeping.js';
import { purgeEventsBatch } from '../../db/retention/events.js';
import type { BatchOutcome, PlanCutoffs } from '../../db/retention/expiredByServer.js';
import { purgeAuditLogBatch, purgeFlowRunsBatch, purgeModerationActionsBatch, purgeXpChangesBatch } from '../../db/retention/records.js';
import { purgeTranscriptsBatch } from '../../db/retention/transcripts.js';
import type { Database } from '../../db/schema.js';
import { WINDOW_MS } from '../core/fixedWindow.js';
import { fixedCutoff, planCutoffs, type FixedRetainedKind, type PlanRetainedKind, type RecordKind } from '../core/retention.js';

/** One batch of a kind: at most `limit` rows from `cursor` (a server id; '' = the start); `next` null = none left. */
export type PurgeBatch = (db: Kysely<Database>, now: Date, cursor: string, limit: number) => Promise<BatchOutcome>;

export interface PurgeStep {
  kind: RecordKind;
  batch: PurgeBatch;
}

/** A kind purged oldest first through a time index: every batch starts at the start, since what it found is gone. */
const byTime =
  (purge: (db: Kysely<Database>, cutoff: Date, limit: number) => Promise<number>, cutoffOf: (now: Date) => Date): PurgeBatch =>
  async (db, now, _cursor, limit) => {
    const deleted = await purge(db, cutoffOf(now), limit);
    return { deleted, next: deleted < limit ? null : '' };
  };

const fixed = (kind: FixedRetainedKind, purge: (db: Kysely<Database>, cutoff: Date, limit: number) => Promise<number>): PurgeStep => ({
  kind,
  batch: byTime(purge, (now) => fixedCutoff(kind, now)),
});

const byPlan = (kind: PlanRetainedKind, purge: (db: Kysely<Database>, cutoffs: PlanCutoffs, cursor: string, limit: number) => Promise<BatchOutcome>): PurgeStep => ({
  kind,
  batch: (db, now, cursor, limit) => purge(db, planCutoffs(kind, now), cursor, limit),
});

/** Every kind of src/core/retention.ts with its purge, in the order a run takes them. */
export const PURGE_STEPS: readonly PurgeStep[] = [
  { kind: 'idempotencyRecords', batch: byTime(purgeIdempotencyRecordsBatch, (now) => now) },
  { kind: 'rateLimitWindows', batch: byTime(purgeRateLimitWindowsBatch, (now) => new Date(now.getTime() - WINDOW_MS)) },
  // A few rows per signed-in manager: one statement.
  { kind: 'consoleSessions', batch: async (db, now) => ({ deleted: await purgeEndedSessions(db, now), next: null }) },
  fixed('countedMessages', purgeCountedMessagesBatch),
  fixed('handledInteractions', purgeHandledInteractionsBatch),
  fixed('levelUpEffects', purgeLevelUpEffectsBatch),
  byPlan('events', purgeEventsBatch),
  byPlan('auditLog', purgeAuditLogBatch),
  byPlan('flowRuns', purgeFlowRunsBatch),
  byPlan('xpChanges', purgeXpChangesBatch),
  byPlan('moderationActions', purgeModerationActionsBatch),
  byPlan('ticketTranscripts', purgeTranscriptsBatch),
  // Last, so a run resumed from the heartbeat of a worker that had no such step keeps every other step's number.
  fixed('flowRunQuotas', purgeFlowRunQuotasBatch),
];
