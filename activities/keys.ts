import { purgeEndedSessions } from '../db/console/sessions.js';
import { foldKeyUseBefore } from '../db/keys/apiKeys.js';
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
      const windowsEnded = new Date(now.getTime() - WINDOW_MS);
      await foldKeyUseBefore(db, windowsEnded);
      return {
        idempotencyRecords: await purgeExpiredIdempotencyRecords(db, now),
        rateLimitWindows: await purgeWindowsBefore(db, windowsEnded),
        consoleSessions: await purgeEndedSessions(db, now),
      };
    },
  };
}
