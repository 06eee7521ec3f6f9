// Fixed-window counters in PostgreSQL (`rate_limit_counters`), shared by every api instance: the per-key request
// rate, failed authentications per address, moderation actions per key, calls of a flow's webhook URL. Not an
// area of its own: what any area or the api counts per minute.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { addHits, countHit, windowId } from '../../db/shared/rateLimits.js';
import type { Clock } from '../core/clock.js';
import { rateLimited } from '../core/errors.js';
import { currentWindow } from '../core/fixedWindow.js';

/** Adds one hit to the bucket's window starting at `windowStart`; answers the window's count including it (every instance's). */
export const countWindowHit = (db: Kysely<Database>, bucket: string, windowStart: Date): Promise<number> => countHit(db, bucket, windowStart);

/** Adds several counts in one statement; answers each window's new total by `windowKey`. */
export const addWindowHits = (db: Kysely<Database>, hits: Array<{ bucket: string; windowStart: Date; count: number }>): Promise<Map<string, number>> =>
  addHits(db, hits);

/** How addWindowHits names a window in its answer. */
export const windowKey = (bucket: string, windowStart: Date): string => windowId(bucket, windowStart);

/** Counts one use of `bucket` in this minute's window; past `perMinute`, 429 RATE_LIMITED until the window ends. */
export async function admitWithinMinuteLimit(deps: { db: Kysely<Database>; clock: Clock }, bucket: string, perMinute: number, message: string): Promise<void> {
  const window = currentWindow(deps.clock.now());
  if ((await countHit(deps.db, bucket, window.start)) > perMinute) throw rateLimited(window.secondsToReset, message);
}
