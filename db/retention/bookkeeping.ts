import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Deletes at most `limit` rows of `table` whose `column` is before `cutoff` (and match `where`), found through the
 * column's index and deleted by row address in one statement; answers how many.
 */
async function deleteBefore(db: Kysely<Database>, table: string, column: string, cutoff: Date | string, limit: number, where: RawBuilder<unknown> = sql`true`): Promise<number> {
  const result = await sql`
    delete from ${sql.table(table)} where ctid = any(array(
      select ctid from ${sql.table(table)} where ${sql.ref(column)} < ${cutoff} and ${where} limit ${limit}))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export const purgeCountedMessagesBatch = (db: Kysely<Database>, cutoff: Date, limit: number) => deleteBefore(db, 'level_counted_messages', 'counted_at', cutoff, limit);
export const purgeHandledInteractionsBatch = (db: Kysely<Database>, cutoff: Date, limit: number) => deleteBefore(db, 'handled_interactions', 'handled_at', cutoff, limit);

/** Applied level-up effects only: one not applied yet is still owed to its member. */
export const purgeLevelUpEffectsBatch = (db: Kysely<Database>, cutoff: Date, limit: number) =>
  deleteBefore(db, 'level_up_effects', 'applied_at', cutoff, limit, sql`applied_at is not null`);

/**
 * Daily flow-run counts whose UTC day ended by `cutoff`: the day is compared as a date (YYYY-MM-DD), so the process's
 * time zone plays no part. The table is one row per server and day, a day or two of them once purged: no index.
 */
export const purgeFlowRunQuotasBatch = (db: Kysely<Database>, cutoff: Date, limit: number) =>
  deleteBefore(db, 'flow_run_quotas', 'day', cutoff.toISOString().slice(0, 10), limit);

/** Records past their own expiry (`expires_at` = creation + 24 h); `now` is the cutoff. */
export const purgeIdempotencyRecordsBatch = (db: Kysely<Database>, now: Date, limit: number) =>
  deleteBefore(db, 'idempotency_records', 'expires_at', new Date(now.getTime() + 1), limit);

/**
 * Ended rate-limit windows; each API key's latest deleted window start is kept in api_keys.last_used_at by the same
 * statement (its last use, to the minute), so an interrupted purge never loses one.
 */
export async function purgeRateLimitWindowsBatch(db: Kysely<Database>, windowsEnded: Date, limit: number): Promise<number> {
  const { rows: [row] } = await sql<{ deleted: number }>`
    with gone as (
      delete from rate_limit_counters where ctid = any(array(
        select ctid from rate_limit_counters where window_start < ${windowsEnded} limit ${limit}))
      returning bucket, window_start),
    folded as (
      update api_keys k set last_used_at = greatest(k.last_used_at, w.latest)
      from (select substring(bucket from 5)::integer as id, max(window_start) as latest from gone where bucket ~ '^key:[0-9]+$' group by 1) w
      where k.id = w.id)
    select count(*)::int as deleted from gone`.execute(db);
  return row!.deleted;
}
