import { setTimeout as sleep } from 'node:timers/promises';
import type { IIdentifyThrottler } from '@discordjs/ws';
import type { Kysely } from 'kysely';
import { takeIdentifySlot } from '../../db/bot/identifySlots.js';
import type { Database } from '../../db/schema.js';
import { isDependencyUnavailable } from '../../src/core/dependencyErrors.js';
import type { Logger } from '../../src/core/logger.js';

/**
 * Discord's window: max_concurrency identifies per 5 s per rate-limit key. Half a second more, because the slot is
 * taken before the IDENTIFY is sent and Discord measures when it arrives.
 */
export const IDENTIFY_WINDOW_MS = 5_500;

/**
 * The identify throttler (@discordjs/ws's buildIdentifyThrottler) shared by every bot process through PostgreSQL:
 * a shard identifies only once its rate-limit key (shard id % max_concurrency) has its slot (bot_identify_slots).
 * The library's own throttler is per process, so bot processes started together (shards 0-3 and 4-7) would identify
 * shards of one key within 5 s, and Discord would answer op 9 (invalid session) and count a session start each time.
 */
export function sharedIdentifyThrottler(o: { db: Kysely<Database>; maxConcurrency: number; logger: Logger; windowMs?: number }): IIdentifyThrottler {
  const windowMs = o.windowMs ?? IDENTIFY_WINDOW_MS;
  return {
    async waitForIdentify(shardId, signal) {
      const key = shardId % Math.max(1, o.maxConcurrency);
      for (;;) {
        signal.throwIfAborted();
        let waitMs: number;
        try {
          waitMs = await takeIdentifySlot(o.db, key, windowMs);
        } catch (err) {
          // The database out: wait for it rather than identify unthrottled.
          if (!isDependencyUnavailable(err)) throw err;
          o.logger.warn({ err, shardId }, 'gateway identify waits: the shared identify slots cannot be read');
          waitMs = 1_000;
        }
        if (waitMs === 0) return;
        await sleep(waitMs + Math.floor(Math.random() * 250), undefined, { signal });
      }
    },
  };
}
