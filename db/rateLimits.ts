import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

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
