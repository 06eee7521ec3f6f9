import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Takes the identify slot of a rate-limit key when its last identify is `windowMs` old (on PostgreSQL's clock, the
 * same for every process): 0 when taken, else how many ms until it may be. One statement, so two processes asking
 * at once cannot both take it (the second waits on the row and then sees the first's time).
 */
export async function takeIdentifySlot(db: Kysely<Database>, rateLimitKey: number, windowMs: number): Promise<number> {
  const taken = await sql<{ rate_limit_key: number }>`
    INSERT INTO bot_identify_slots (rate_limit_key, identified_at) VALUES (${rateLimitKey}, clock_timestamp())
    ON CONFLICT (rate_limit_key) DO UPDATE SET identified_at = clock_timestamp()
      WHERE bot_identify_slots.identified_at <= clock_timestamp() - make_interval(secs => ${windowMs / 1000})
    RETURNING rate_limit_key`.execute(db);
  if (taken.rows.length > 0) return 0;
  const row = await sql<{ wait_ms: string }>`
    SELECT greatest(0, ceil(extract(epoch FROM identified_at + make_interval(secs => ${windowMs / 1000}) - clock_timestamp()) * 1000)) AS wait_ms
    FROM bot_identify_slots WHERE rate_limit_key = ${rateLimitKey}`.execute(db);
  // At least 1 ms: the slot was taken a moment ago, so the caller asks again rather than identifying.
  return Math.max(1, Number(row.rows[0]?.wait_ms ?? 1));
}

/** Forgets every identify (tests that stand for a fresh Discord). */
export async function clearIdentifySlots(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('bot_identify_slots').execute();
}
