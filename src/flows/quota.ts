import type { Kysely } from 'kysely';
import { reserveFlowRun } from '../../db/flows/quotas.js';
import type { Database } from '../../db/schema.js';
import { flowRunQuotaExhausted } from '../core/errors.js';
import type { Plan } from '../core/plans.js';

/** Flow runs a server may start per UTC day, every trigger counted (docs/api-decisions.md). */
export const FLOW_RUNS_PER_DAY: Record<Plan, number> = { free: 100, pro: 10_000 };

const DAY_MS = 86_400_000;

export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

export function nextUtcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS + DAY_MS);
}

export const dailyFlowRuns = (plan: string): number => FLOW_RUNS_PER_DAY[plan as Plan] ?? FLOW_RUNS_PER_DAY.free;

/**
 * Takes one run from today's quota in the caller's transaction, or refuses with 429 FLOW_RUN_QUOTA_EXHAUSTED
 * and Retry-After until the next UTC day.
 */
export async function takeFlowRunQuota(trx: Kysely<Database>, guild: { id: string; plan: string }, at: Date): Promise<void> {
  const limit = dailyFlowRuns(guild.plan);
  if (await reserveFlowRun(trx, guild.id, utcDay(at), limit)) return;
  const resetAt = nextUtcDay(at);
  throw flowRunQuotaExhausted(limit, resetAt, Math.max(1, Math.ceil((resetAt.getTime() - at.getTime()) / 1000)));
}
