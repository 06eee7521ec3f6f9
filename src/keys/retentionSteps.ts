import type { Kysely } from 'kysely';
import { purgeEndedSessions, SIGN_IN_KEPT_MS } from '../../db/console/sessions.js';
import {
  purgeCountedMessagesBatch,
  purgeFlowRunQuotasBatch,
  purgeHandledInteractionsBatch,
  purgeIdempotencyRecordsBatch,
  purgeLevelUpEffectsBatch,
  purgeRateLimitWindowsBatch,
} from '../../db/retention/bookkeeping.js';
import { earliestPlanDue, firstQuotaDayDue, oldestOf } from '../../db/retention/earliestDue.js';
import { EVENT_ROWS, purgeEventsBatch } from '../../db/retention/events.js';
import type { BatchOutcome, ExpiredRows, PlanCutoffs } from '../../db/retention/expiredByServer.js';
import {
  AUDIT_ROWS,
  FLOW_RUN_ROWS,
  MOD_ACTION_ROWS,
  purgeAuditLogBatch,
  purgeFlowRunsBatch,
  purgeModerationActionsBatch,
  purgeXpChangesBatch,
  XP_CHANGE_ROWS,
} from '../../db/retention/records.js';
import { purgeTranscriptsBatch, TRANSCRIPT_ROWS } from '../../db/retention/transcripts.js';
import type { Database } from '../../db/schema.js';
import { WINDOW_MS } from '../core/fixedWindow.js';
import { FIXED_RETENTION_MS, fixedCutoff, planCutoffs, RETENTION_DAYS_BY_PLAN, type FixedRetainedKind, type PlanRetainedKind, type RecordKind } from '../core/retention.js';

/** One batch of a kind: at most `limit` rows from `cursor` (a server id; '' = the start); `next` null = none left. */
export type PurgeBatch = (db: Kysely<Database>, now: Date, cursor: string, limit: number) => Promise<BatchOutcome>;

/** When the kind's first stored record comes due (null: none stored): the dispatcher sleeps until the earliest. */
export type FirstDue = (db: Kysely<Database>) => Promise<Date | null>;

export interface PurgeStep {
  kind: RecordKind;
  batch: PurgeBatch;
  firstDue: FirstDue;
}

const after = (at: Date | null, ms: number) => (at === null ? null : new Date(at.getTime() + ms));
const earliest = (dates: Array<Date | null>) => dates.reduce<Date | null>((a, b) => (a === null || (b !== null && b < a) ? b : a), null);
/** A kind kept `ms` after `column` of `table`. */
const oldestPlus = (table: string, column: string, ms: number): FirstDue => async (db) => after(await oldestOf(db, table, column), ms);

/** A kind purged oldest first through a time index: every batch starts at the start, since what it found is gone. */
const byTime =
  (purge: (db: Kysely<Database>, cutoff: Date, limit: number) => Promise<number>, cutoffOf: (now: Date) => Date): PurgeBatch =>
  async (db, now, _cursor, limit) => {
    const deleted = await purge(db, cutoffOf(now), limit);
    return { deleted, next: deleted < limit ? null : '' };
  };

const fixed = (kind: FixedRetainedKind, purge: (db: Kysely<Database>, cutoff: Date, limit: number) => Promise<number>, table: string, column: string): PurgeStep => ({
  kind,
  batch: byTime(purge, (now) => fixedCutoff(kind, now)),
  firstDue: oldestPlus(table, column, FIXED_RETENTION_MS[kind]),
});

const byPlan = (
  kind: PlanRetainedKind,
  purge: (db: Kysely<Database>, cutoffs: PlanCutoffs, cursor: string, limit: number) => Promise<BatchOutcome>,
  rows: Omit<ExpiredRows, 'columns'>,
): PurgeStep => ({
  kind,
  batch: (db, now, cursor, limit) => purge(db, planCutoffs(kind, now), cursor, limit),
  firstDue: (db) => earliestPlanDue(db, rows, RETENTION_DAYS_BY_PLAN[kind]),
});

/** Every kind of src/core/retention.ts with its purge, in the order a run takes them. */
export const PURGE_STEPS: readonly PurgeStep[] = [
  { kind: 'idempotencyRecords', batch: byTime(purgeIdempotencyRecordsBatch, (now) => now), firstDue: oldestPlus('idempotency_records', 'expires_at', 0) },
  {
    kind: 'rateLimitWindows',
    batch: byTime(purgeRateLimitWindowsBatch, (now) => new Date(now.getTime() - WINDOW_MS)),
    firstDue: oldestPlus('rate_limit_counters', 'window_start', WINDOW_MS),
  },
  // A few rows per signed-in manager: one statement.
  {
    kind: 'consoleSessions',
    batch: async (db, now) => ({ deleted: await purgeEndedSessions(db, now), next: null }),
    firstDue: async (db) => earliest([await oldestOf(db, 'console_sessions', 'expires_at'), after(await oldestOf(db, 'console_sign_ins', 'created_at'), SIGN_IN_KEPT_MS)]),
  },
  fixed('countedMessages', purgeCountedMessagesBatch, 'level_counted_messages', 'counted_at'),
  fixed('handledInteractions', purgeHandledInteractionsBatch, 'handled_interactions', 'handled_at'),
  fixed('levelUpEffects', purgeLevelUpEffectsBatch, 'level_up_effects', 'applied_at'),
  byPlan('events', purgeEventsBatch, EVENT_ROWS),
  byPlan('auditLog', purgeAuditLogBatch, AUDIT_ROWS),
  byPlan('flowRuns', purgeFlowRunsBatch, FLOW_RUN_ROWS),
  byPlan('xpChanges', purgeXpChangesBatch, XP_CHANGE_ROWS),
  byPlan('moderationActions', purgeModerationActionsBatch, MOD_ACTION_ROWS),
  byPlan('ticketTranscripts', purgeTranscriptsBatch, TRANSCRIPT_ROWS),
  // Last, so a run resumed from the heartbeat of a worker that had no such step keeps every other step's number.
  { kind: 'flowRunQuotas', batch: byTime(purgeFlowRunQuotasBatch, (now) => fixedCutoff('flowRunQuotas', now)), firstDue: (db) => firstQuotaDayDue(db, FIXED_RETENTION_MS.flowRunQuotas) },
];

/** When the first stored record of `steps` comes due; null when none is stored. */
export async function firstDueOf(db: Kysely<Database>, steps: readonly PurgeStep[]): Promise<Date | null> {
  const dues: Array<Date | null> = [];
  for (const step of steps) dues.push(await step.firstDue(db));
  return earliest(dues);
}

/**
 * The kinds kept a fixed time or until their own end, whose indexes answer their oldest row in one probe: the start
 * relay looks at these for a record written since the last pass that comes due before the next. Kinds kept per plan
 * come due a plan's retention (30 days at least) after their writing, which the dispatcher's horizon covers.
 */
export const CLOCK_STEPS = PURGE_STEPS.filter((s) => !(s.kind in RETENTION_DAYS_BY_PLAN));
