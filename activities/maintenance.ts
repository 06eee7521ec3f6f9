import { purgeExpiredIdempotencyRecords } from '../db/shared/idempotency.js';
import { purgeWindowsBefore } from '../db/shared/rateLimits.js';
import { WINDOW_MS } from '../src/core/fixedWindow.js';
import type { ActivityDeps } from './deps.js';

export function createMaintenanceActivities({ db, clock }: ActivityDeps) {
  return {
    /** Deletes Idempotency-Key records past their 24 hours and rate-limit windows that have ended. */
    async purgeExpiredRecords(): Promise<{ idempotencyRecords: number; rateLimitWindows: number }> {
      const now = clock.now();
      return {
        idempotencyRecords: await purgeExpiredIdempotencyRecords(db, now),
        rateLimitWindows: await purgeWindowsBefore(db, new Date(now.getTime() - WINDOW_MS)),
      };
    },
  };
}
