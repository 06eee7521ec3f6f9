import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { platformMetrics } from '../../src/core/metrics.js';
import { startBotProbes } from '../bot/botProbes.js';
import { discordPlatformOf, startBot } from '../bot/startBot.js';
import { createBotDeps } from '../bot/botDeps.js';
import { processDiscordLatch } from '../platform.js';
import { openDatabase } from '../wiring.js';
import { shareProcessLatch } from '../latchSharing.js';
import { loadConfigOrExit } from './bootConfig.js';
import { runUntilSignal } from './shutdown.js';

const config = loadConfigOrExit();
try {
  discordPlatformOf(config);
} catch (err) {
  process.stderr.write(`error: ${(err as Error).message}\n`);
  process.exit(2);
}
const logger = createLogger(config.logLevel, 'bot');
runUntilSignal(async (defer) => {
  const database = openDatabase(config, logger, 'bot');
  defer(database.close);
  // A ban-like 429 met by any process stops this one's Discord requests too, and one met here stops the fleet's.
  defer(shareProcessLatch(config, database.db, systemClock, logger, 'bot').close);
  const deps = createBotDeps(config, database.db, systemClock, logger, { metrics: platformMetrics });
  if (deps.temporal) defer(() => deps.temporal!.client.connection.close());
  const bot = await startBot(config, deps);
  defer(bot.stop);
  const probes = await startBotProbes(config, database.db, bot, processDiscordLatch(logger));
  defer(probes.close);
  // Discord ended the session for good (4014): the library would leave the shard idle, so say why and end.
  void bot.fatal.then(async (err) => {
    process.stderr.write(`error: ${err.message}\n`);
    await bot.stop().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(1);
  });
  logger.info({ probes: probes.origin }, 'bot connected to the gateway');
}, (line) => logger.info(line), { deadlineMs: config.ops.shutdownDeadlineMs });
