import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Adds one hit to a fixed window and returns the window's count including it. */
export async function countHit(db: Kysely<Database>, bucket: string, windowStart: Date): Promise<number> {
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ bucket, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql`rate_limit_counters.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function readHits(db: Kysely<Database>, bucket: string, windowStart: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_counters')
    .select('count')
    .where('bucket', '=', bucket)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row?.count ?? 0;
}

export async function purgeWindowsBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('rate_limit_counters').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How addHits names a window in its answer. */
export const windowId = (bucket: string, windowStart: Date) => `${bucket}@${windowStart.getTime()}`;

/** Adds several counts in one statement; answers each window's new total by windowId. */
export async function addHits(db: Kysely<Database>, hits: Array<{ bucket: string; windowStart: Date; count: number }>): Promise<Map<string, number>> {
  const rows = await db
    .insertInto('rate_limit_counters')
    .values(hits.map((h) => ({ bucket: h.bucket, window_start: h.windowStart, count: h.count })))
    .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql`rate_limit_counters.count + excluded.count` }))
    .returning(['bucket', 'window_start', 'count'])
    .execute();
  return new Map(rows.map((r) => [windowId(r.bucket, r.window_start), r.count]));
}
