import { purgeEndedSessions } from '../db/console/sessions.js';
import { purgeExpiredIdempotencyRecords } from '../db/shared/idempotency.js';
import { purgeWindowsBefore } from '../db/shared/rateLimits.js';
import { WINDOW_MS } from '../src/core/fixedWindow.js';
import type { PurgeResult } from '../src/keys/ids.js';
import type { ActivityDeps } from './deps.js';

export type KeysActivities = ReturnType<typeof createKeysActivities>;

export function createKeysActivities({ db, clock }: ActivityDeps) {
  return {
    /** Deletes Idempotency-Key records past their 24 hours, rate-limit windows that have ended and ended console sessions. */
    async purgeExpiredRecords(): Promise<PurgeResult> {
      const now = clock.now();
      return {
        idempotencyRecords: await purgeExpiredIdempotencyRecords(db, now),
        rateLimitWindows: await purgeWindowsBefore(db, new Date(now.getTime() - WINDOW_MS)),
        consoleSessions: await purgeEndedSessions(db, now),
      };
    },
  };
}
