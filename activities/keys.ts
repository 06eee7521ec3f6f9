import { purgeEndedSessions } from '../db/console/sessions.js';
import { foldKeyUseBefore } from '../db/keys/apiKeys.js';
import { purgeCountedMessagesBefore } from '../db/levels/activityBatch.js';
import { purgeInteractionsBefore } from '../db/platform/interactions.js';
import { purgeExpiredIdempotencyRecords } from '../db/shared/idempotency.js';
import { purgeWindowsBefore } from '../db/shared/rateLimits.js';
import { WINDOW_MS } from '../src/core/fixedWindow.js';
import type { PurgeResult } from '../src/keys/ids.js';
import type { ActivityDeps } from './deps.js';

export type KeysActivities = ReturnType<typeof createKeysActivities>;

/**
 * How long the bot keeps its claims of counted messages and handled interactions: far past any replay of a resumed
 * gateway session (minutes) and of an interaction (its token lasts 15 minutes).
 */
const COUNTED_MESSAGE_RETENTION_MS = 7 * 24 * 3_600_000;
const HANDLED_INTERACTION_RETENTION_MS = 24 * 3_600_000;

export function createKeysActivities({ db, clock }: ActivityDeps) {
  return {
    /**
     * Deletes Idempotency-Key records past their 24 hours, rate-limit windows that have ended, ended console sessions
     * and the bot's claims of messages and interactions past their retention.
     */
    async purgeExpiredRecords(): Promise<PurgeResult> {
      const now = clock.now();
      const windowsEnded = new Date(now.getTime() - WINDOW_MS);
      await foldKeyUseBefore(db, windowsEnded);
      return {
        idempotencyRecords: await purgeExpiredIdempotencyRecords(db, now),
        rateLimitWindows: await purgeWindowsBefore(db, windowsEnded),
        consoleSessions: await purgeEndedSessions(db, now),
        countedMessages: await purgeCountedMessagesBefore(db, new Date(now.getTime() - COUNTED_MESSAGE_RETENTION_MS)),
        handledInteractions: await purgeInteractionsBefore(db, new Date(now.getTime() - HANDLED_INTERACTION_RETENTION_MS)),
      };
    },
  };
}
