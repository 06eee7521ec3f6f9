import type { Kysely } from 'kysely';
import { clearGatewaySessions } from '../../db/bot/gatewaySessions.js';
import type { Database } from '../../db/schema.js';
import { systemClock } from '../../src/core/clock.js';
import type { Config } from '../../src/core/config.js';
import type { Logger } from '../../src/core/logger.js';
import { platformMetrics } from '../../src/core/metrics.js';
import { startBotProbes } from '../bot/botProbes.js';
import { createBotDeps } from '../bot/botDeps.js';
import { startBot, type RunningBot } from '../bot/startBot.js';
import { attachFakeGateway, type FakeDiscord, type FakeGateway } from '../infra/fakeDiscord/index.js';
import type { GracefulServer } from '../ops/gracefulServer.js';
import { processDiscordLatch } from '../platform.js';

export interface DevBot {
  bot: RunningBot;
  probes: GracefulServer;
  /** The fake's gateway when dev runs against the fake: dispatches on demand. */
  gateway?: FakeGateway;
  stop(): Promise<void>;
}

/**
 * `npm run dev` with the Discord platform starts the bot too, as `npm run bot` does: against real Discord with
 * PLATFORM=discord, or against the fake's gateway (`--platform fake-discord`), where dispatches come on demand.
 * Discord ending the session (4004, 4010-4014) is said in one line; the rest of the stack goes on.
 */
export async function startDevBot(config: Config, db: Kysely<Database>, logger: Logger, say: (line: string) => void, fake?: FakeDiscord): Promise<DevBot> {
  const gateway = fake ? attachFakeGateway(fake) : undefined;
  // The fake started with this dev run has never seen the sessions an earlier run saved: resuming them would only
  // be refused (and reported as a lost session).
  if (fake) await clearGatewaySessions(db);
  const bot = await startBot(config, createBotDeps(config, db, systemClock, logger, { metrics: platformMetrics }));
  void bot.fatal.then((err) => say(`bot stopped: ${err.message}`));
  const probes = await startBotProbes(config, db, bot, processDiscordLatch(logger)).catch(async (err: unknown) => {
    await bot.stop();
    throw err;
  });
  return {
    bot,
    probes,
    gateway,
    async stop() {
      await probes.close();
      await bot.stop();
    },
  };
}
