import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { admitWithinMinuteLimit } from '../requests/rateLimitWindows.js';

/** Counts a sign-in attempt of the address (every api instance's); past the limit, 429 until the minute ends. */
export function admitSignInAttempt(deps: { db: Kysely<Database>; clock: Clock; perMinute: number }, clientAddress: string): Promise<void> {
  return admitWithinMinuteLimit(deps, `console-sign-in:${clientAddress}`, deps.perMinute, 'Too many sign-in attempts from this address; wait a minute.');
}
