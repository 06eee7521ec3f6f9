import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { platformMetrics } from '../../src/core/metrics.js';
import { createDatabase } from '../../db/pool.js';
import { startDiscordEgress } from '../egress/startEgress.js';
import { shareLatch } from '../latchSharing.js';
import { processDiscordLatch } from '../platform.js';
import { sessionOptionsOf } from '../wiring.js';
import { loadConfigOrExit } from './bootConfig.js';
import { runUntilSignal } from './shutdown.js';

// `npm run discord-proxy`: the fleet's one way to Discord's REST API (docs/deployment.md, "Discord egress").
const config = loadConfigOrExit();
const logger = createLogger(config.logLevel, 'discord-egress');
runUntilSignal(async (defer) => {
  if (!config.database.url) throw new Error('DATABASE_URL is not set: the egress records and hears the fleet’s Discord stops there.');
  // Two connections: the block records; the LISTEN has one of its own.
  const database = createDatabase(config.database.url, 2, sessionOptionsOf(config, 'discord-egress', logger));
  defer(database.close);
  const latch = processDiscordLatch(logger);
  const sharing = shareLatch({ latch, db: database.db, listenUrl: config.database.directUrl ?? config.database.url, clock: systemClock, logger, name: 'discord-egress' });
  defer(sharing.close);
  const egress = await startDiscordEgress(config, database.db, logger, { metrics: platformMetrics });
  defer(egress.close);
  logger.info({ apiUrl: egress.apiUrl, upstream: config.egress.upstreamUrl }, 'Discord egress listening: point DISCORD_API_URL of every process here');
}, (line) => logger.info(line), { deadlineMs: config.ops.shutdownDeadlineMs });
