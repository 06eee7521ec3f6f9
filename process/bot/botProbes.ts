import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Config } from '../../src/core/config.js';
import type { BanLatch } from '../../src/platform/discord/banLatch.js';
import { scrape } from '../../src/core/metrics.js';
import { startGracefulServer, type GracefulServer } from '../ops/gracefulServer.js';
import { opsEndpoints } from '../ops/opsEndpoints.js';
import { databaseCheck } from '../ops/probes.js';
import type { RunningBot } from './startBot.js';

/**
 * The bot's own HTTP server on BOT_PORT: `/livez`, `/metrics`, and `/readyz`, ready when every shard of this process
 * is connected (the database is reported beside it, not required), showing each shard's state and the age of its
 * last dispatch (an operator sees a stalled gateway: a shard not ready, or silent for longer than its servers are)
 * and the queue.
 */
export async function startBotProbes(config: Config, db: Kysely<Database>, bot: RunningBot, latch?: BanLatch): Promise<GracefulServer> {
  const ops = opsEndpoints({
    dependencies: { database: databaseCheck(db) },
    checks: {
      gateway: async () => {
        const shards = await bot.shards();
        return shards.length > 0 && shards.every((s) => s.status === 'ready');
      },
    },
    metrics: scrape,
    // Discord's stop after a ban-like 429 is shown, not made a failed check: restarting the bot would not end it.
    details: async () => ({ shards: await bot.shards(), queued: bot.queued(), ...(latch ? { discord: latch.state() } : {}) }),
  });
  return startGracefulServer({ host: config.http.host, port: config.bot.port, drainMs: 0, ops });
}
