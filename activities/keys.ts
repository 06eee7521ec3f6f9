import { Context } from '@temporalio/activity';
import { purgeEndedSessions } from '../db/console/sessions.js';
import { foldKeyUseBefore } from '../db/keys/apiKeys.js';
import { purgeCountedMessagesBefore } from '../db/levels/activityBatch.js';
import { purgeInteractionsBefore } from '../db/platform/interactions.js';
import { purgeExpiredIdempotencyRecords } from '../db/shared/idempotency.js';
import { purgeWindowsBefore } from '../db/shared/rateLimits.js';
import { WINDOW_MS } from '../src/core/fixedWindow.js';
import type { PurgeResult, RetentionPurgeOptions, RetentionPurgePass, RetentionPurgeResult } from '../src/keys/ids.js';
import { planNextPass } from '../src/keys/purgeDispatcher.js';
import { purgeRetention, type PurgeProgress } from '../src/keys/retentionPurge.js';
import type { ActivityDeps } from './deps.js';

export type KeysActivities = ReturnType<typeof createKeysActivities>;

/**
 * How long the bot keeps its claims of counted messages and handled interactions: far past any replay of a resumed
 * gateway session (minutes) and of an interaction (its token lasts 15 minutes).
 */
const COUNTED_MESSAGE_RETENTION_MS = 7 * 24 * 3_600_000;
const HANDLED_INTERACTION_RETENTION_MS = 24 * 3_600_000;

export function createKeysActivities({ db, clock }: ActivityDeps) {
  /**
   * Purges every record kind past its retention (src/core/retention.ts) in short batches, heartbeating its progress
   * after each; a retried attempt (the worker died, a statement failed) goes on from the last heartbeat, and a
   * cancelled one stops after its batch in progress.
   */
  async function heartbeatingPurge(options: RetentionPurgeOptions = {}): Promise<RetentionPurgeResult> {
    const context = Context.current();
    const from = context.info.heartbeatDetails as PurgeProgress | undefined;
    return purgeRetention({ db, clock, signal: context.cancellationSignal, onProgress: (p) => context.heartbeat(p) }, options, from);
  }

  return {
    /** The retired schedule's workflow (patch `retention-purge`): runs it started before an upgrade deleted it. */
    purgeRetention: heartbeatingPurge,

    /**
     * The purge dispatcher's pass: the purge above (same batches, budget and heartbeats), then when the next pass is
     * due (src/keys/purgeDispatcher.ts, planNextPass).
     */
    async purgeDueRecords(): Promise<RetentionPurgePass> {
      const result = await heartbeatingPurge();
      return { ...result, nextPassInMs: await planNextPass({ db, clock }, result.complete) };
    },

    /**
     * Runs of the schedule's workflow from before patch `retention-purge` (in flight during a roll) still call this.
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
