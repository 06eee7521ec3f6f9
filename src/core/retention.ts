import { PLANS, type Plan } from './plans.js';

// The one declaration of how long the service keeps each kind of record (docs/retention.md shows it as a table; a
// test holds the two together). The hourly purge (src/keys/retentionPurge.ts) reads it and nothing else.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Kinds kept per the server's plan, in days after the moment named in docs/retention.md (a settled record's end, an
 * event's or audit row's creation, a ticket's close). Records still under way are never purged.
 */
export const RETENTION_DAYS_BY_PLAN = {
  /** Events with their webhook deliveries and attempts: past every retry (about 33 h) and a month of console retries. */
  events: { free: 30, pro: 90 },
  auditLog: { free: 90, pro: 365 },
  /** Finished flow runs with their applied effects; GET flows/runs answers FLOW_RUN_NOT_FOUND after. */
  flowRuns: { free: 30, pro: 90 },
  /** Settled XP changes; polling answers XP_CHANGE_NOT_FOUND after. */
  xpChanges: { free: 30, pro: 90 },
  /** Settled moderation actions (the cases they made stay); polling answers ACTION_NOT_FOUND after. */
  moderationActions: { free: 30, pro: 90 },
  /** Transcripts (the messages) of closed tickets; the ticket stays, its transcript answers TRANSCRIPT_NOT_FOUND. */
  ticketTranscripts: { free: 90, pro: 365 },
} as const satisfies Record<string, Record<Plan, number>>;

/** Kinds kept the same time on every plan: the service's own bookkeeping, in milliseconds. */
export const FIXED_RETENTION_MS = {
  /** Applied level-up effects: a week past their application, far past any retry of their workflow. */
  levelUpEffects: 7 * DAY_MS,
  /** The bot's claims of counted messages: far past any replay of a resumed gateway session (minutes). */
  countedMessages: 7 * DAY_MS,
  /** The bot's claims of handled interactions: an interaction's token lasts 15 minutes. */
  handledInteractions: DAY_MS,
  /** Each server's count of flow runs per UTC day, past the day's end: only the current day's count is ever read. */
  flowRunQuotas: DAY_MS,
} as const;

/**
 * Kinds that carry their own end: Idempotency-Key records at their `expires_at` (24 h, spec: Limits), rate-limit
 * windows once ended (each key's last use folded into api_keys.last_used_at as they go), console sessions at their
 * expiry.
 */
export const SELF_EXPIRING_KINDS = ['idempotencyRecords', 'rateLimitWindows', 'consoleSessions'] as const;

export type PlanRetainedKind = keyof typeof RETENTION_DAYS_BY_PLAN;
export type FixedRetainedKind = keyof typeof FIXED_RETENTION_MS;
export type RecordKind = PlanRetainedKind | FixedRetainedKind | (typeof SELF_EXPIRING_KINDS)[number];

/** Each plan's cutoff for a kind: records of a server on that plan older than it are expired. */
export function planCutoffs(kind: PlanRetainedKind, now: Date): Record<Plan, Date> {
  const days = RETENTION_DAYS_BY_PLAN[kind];
  return Object.fromEntries(PLANS.map((plan) => [plan, new Date(now.getTime() - days[plan] * DAY_MS)])) as Record<Plan, Date>;
}

export const fixedCutoff = (kind: FixedRetainedKind, now: Date) => new Date(now.getTime() - FIXED_RETENTION_MS[kind]);

/**
 * How much one hourly run may do: rows per batch (each its own short transaction), time for the whole run, the
 * share of that time spent deleting (the rest it rests between batches, leaving the database to the api), and rows
 * per second at most: what the api's reads feel is each deleted row's WAL and dirty pages more than the purge's time
 * (docs/retention.md), so faster batches must not mean a faster purge. 5,000 a second still clears 1,500,000 rows in
 * a run's 5 minutes.
 */
export const PURGE_LIMITS = { batchRows: 1_000, runBudgetMs: 5 * 60_000, dutyPercent: 50, rowsPerSecond: 5_000 } as const;
