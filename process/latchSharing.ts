import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { listenForPlatformBlocks, recordPlatformBlock } from '../db/platform/platformBlocks.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../src/core/clock.js';
import type { Config } from '../src/core/config.js';
import type { Logger } from '../src/core/logger.js';
import type { BanLatch } from '../src/platform/discord/banLatch.js';
import { processDiscordLatch } from './platform.js';

export interface LatchSharing {
  close(): Promise<void>;
}

/**
 * Makes a process's ban latch the fleet's: a block it meets is written to platform_blocks and announced (NOTIFY), and
 * every block announced by another process, or recorded while this one was not listening, closes it too (LISTEN on
 * `listenUrl`, a connection past any transaction pooler: DATABASE_DIRECT_URL). Each request made during a ban prolongs
 * it, whichever process makes it (docs/deployment.md, "During a Discord ban").
 */
export function shareLatch(options: { latch: BanLatch; db: Kysely<Database>; listenUrl: string; clock: Clock; logger: Logger; name: string }): LatchSharing {
  const { latch, db, logger, clock } = options;
  const setBy = `${options.name} ${hostname()}:${process.pid}`;
  latch.onBlock((until, reason) => {
    recordPlatformBlock(db, { until, reason, setBy }).catch((err: unknown) =>
      logger.warn({ err }, 'the Discord stop was not recorded for the fleet (the database is out): other processes stop only when they meet the 429 themselves'),
    );
  });
  const listener = listenForPlatformBlocks(
    options.listenUrl,
    {
      block(block) {
        // Its own announcement, or a block long past (read on connecting), changes nothing.
        if (block.setBy === setBy || block.until.getTime() <= clock.now().getTime()) return;
        latch.impose(block.until, block.reason, block.setBy);
      },
      lost: (err) => logger.warn({ err }, "the fleet's Discord stops are not heard until the listening connection is back"),
    },
    { applicationName: `community-bot-${options.name}-blocks` },
  );
  return { close: () => listener.close() };
}

/** The process's latch shared with the fleet when it talks to Discord; nothing otherwise (the local platform). */
export function shareProcessLatch(config: Config, db: Kysely<Database>, clock: Clock, logger: Logger, name: string): LatchSharing {
  const listenUrl = config.database.directUrl ?? config.database.url;
  if (config.platform.kind !== 'discord' || !listenUrl) return { close: async () => undefined };
  return shareLatch({ latch: processDiscordLatch(logger), db, listenUrl, clock, logger, name });
}
