import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { lastAttempts, tallyAttempts, tallyAttemptsByHour, type AttemptTally, type LastAttempt } from '../../db/webhooks/health.js';

export type { AttemptTally, LastAttempt };

const HOUR_MS = 60 * 60 * 1000;
export const HEALTH_WINDOW_MS = 24 * HOUR_MS;

export interface EndpointHealth {
  /** Attempts of the last 24 hours (by the service's clock) by outcome. */
  window: AttemptTally;
  /** Delivered attempts over all attempts of the window, 0 to 1; null without any attempt. */
  successRate: number | null;
  last: LastAttempt | null;
}

const NO_ATTEMPTS: AttemptTally = { attempts: 0, delivered: 0, rejected: 0, noAnswer: 0 };

/** The health of each endpoint at `now`: success rate over the last 24 hours and the latest attempt. */
export async function readEndpointsHealth(db: Kysely<Database>, endpointIds: number[], now: Date): Promise<Map<number, EndpointHealth>> {
  const [tallies, lasts] = await Promise.all([tallyAttempts(db, endpointIds, new Date(now.getTime() - HEALTH_WINDOW_MS), now), lastAttempts(db, endpointIds, now)]);
  return new Map(
    endpointIds.map((id) => {
      const window = tallies.get(id) ?? NO_ATTEMPTS;
      return [id, { window, successRate: window.attempts === 0 ? null : window.delivered / window.attempts, last: lasts.get(id) ?? null }];
    }),
  );
}

export interface HourOfAttempts extends AttemptTally {
  /** The hour's start (UTC). */
  hour: Date;
}

/** One endpoint's attempts per hour by outcome: the 24 hours up to `now`, the current one so far, oldest first. */
export async function readAttemptsByHour(db: Kysely<Database>, endpointId: number, now: Date): Promise<HourOfAttempts[]> {
  const currentHour = Math.floor(now.getTime() / HOUR_MS);
  const firstHour = currentHour - 23;
  const byHour = await tallyAttemptsByHour(db, endpointId, new Date(firstHour * HOUR_MS), now);
  return Array.from({ length: 24 }, (_, i) => ({ hour: new Date((firstHour + i) * HOUR_MS), ...(byHour.get(firstHour + i) ?? NO_ATTEMPTS) }));
}
