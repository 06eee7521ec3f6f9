import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Config } from '../../src/core/config.js';
import type { Logger } from '../../src/core/logger.js';
import { scrape, type PlatformMetrics } from '../../src/core/metrics.js';
import type { BanLatch } from '../../src/platform/discord/banLatch.js';
import { startGracefulServer } from '../ops/gracefulServer.js';
import { opsEndpoints } from '../ops/opsEndpoints.js';
import { databaseCheck } from '../ops/probes.js';
import { processDiscordLatch } from '../platform.js';
import { discordEgressHandler } from './discordEgress.js';

export interface RunningEgress {
  /** What the other processes set as DISCORD_API_URL. */
  apiUrl: string;
  origin: string;
  close(): Promise<void>;
}

/**
 * The egress's HTTP server on DISCORD_EGRESS_PORT: Discord's REST API under /api (discordEgress.ts), and /livez,
 * /readyz (the fleet's stop in its detail), /metrics (what Discord answered: requests, 429s by scope, invalid
 * requests). Its latch is the process's; the caller shares it with the fleet (process/latchSharing.ts).
 */
export async function startDiscordEgress(
  config: Config,
  db: Kysely<Database>,
  logger: Logger,
  options: { upstreamUrl?: string; port?: number; metrics?: PlatformMetrics; latch?: BanLatch } = {},
): Promise<RunningEgress> {
  const latch = options.latch ?? processDiscordLatch(logger);
  const ops = opsEndpoints({ dependencies: { database: databaseCheck(db) }, metrics: scrape, details: async () => ({ discord: latch.state() }) });
  const handler = discordEgressHandler({ upstreamUrl: options.upstreamUrl ?? config.egress.upstreamUrl, latch, logger, metrics: options.metrics });
  // In-flight requests may be waiting on a bucket (up to 10 s) and then on Discord (up to 15 s).
  const server = await startGracefulServer({ host: config.http.host, port: options.port ?? config.egress.port, drainMs: 25_000, ops, handler });
  return { apiUrl: `${server.origin}/api`, origin: server.origin, close: () => server.close() };
}
