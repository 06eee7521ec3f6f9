import { once } from 'node:events';
import { fixedClock } from '../../src/core/clock.js';
import { loadConfig, type Config } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createBotDeps } from '../../process/bot/botDeps.js';
import type { BotDeps } from '../../process/bot/handler.js';
import { discordMemberList } from '../../src/platform/discord/discordMemberList.js';
import { startBot, type BotOptions, type RunningBot } from '../../process/bot/startBot.js';
import { attachFakeGateway, guildCreatePayload, startFakeDiscord, type FakeDiscord, type FakeGateway, type FakeGatewayOptions, type FakeInteractionAnswer } from '../../process/infra/fakeDiscord/index.js';
import { changeGuild } from '../../src/guild/guildManagement.js';
import type { GuildRecord } from '../../db/guild/guilds.js';
import { clearGatewaySessions } from '../../db/bot/gatewaySessions.js';
import { clearIdentifySlots } from '../../db/bot/identifySlots.js';
import type { TestDatabase } from '../harness/database.js';
import { seedFakeServer, type FakeServer } from './fakeServer.js';

export interface BotBed {
  fake: FakeDiscord;
  gateway: FakeGateway;
  bot: RunningBot;
  config: Config;
  clock: ReturnType<typeof fixedClock>;
  /** Sends a dispatch from the fake gateway and resolves once the bot has handled it. */
  dispatch(t: string, d: unknown): Promise<number>;
  /** What the bot answered to the interaction with this token, in order. */
  answersTo(token: string): FakeInteractionAnswer[];
  close(): Promise<void>;
}

/** The real bot code (startBot) against the fake gateway and HTTP API, writing to the test's database. */
export async function startBotBed(
  database: TestDatabase,
  now: Date,
  gatewayOptions: FakeGatewayOptions = {},
  botOptions: BotOptions = {},
  depOverrides: Partial<BotDeps> = {},
  env: Record<string, string> = {},
  /** What the fake Discord holds before the bot connects (servers listed in READY, then sent as GUILD_CREATE). */
  seed: (fake: FakeDiscord) => Promise<void> | void = () => undefined,
): Promise<BotBed> {
  const fake = await startFakeDiscord();
  const gateway = attachFakeGateway(fake, gatewayOptions);
  await seed(fake);
  // A new fake is a Discord that never saw the sessions an earlier bot of this test file saved.
  await clearGatewaySessions(database.db);
  await clearIdentifySlots(database.db);
  const ready = once(gateway.events, 'ready');
  const bed = await botBedOn(database, fake, gateway, now, botOptions, depOverrides, env).catch(async (err: unknown) => {
    await fake.close();
    throw err;
  });
  await ready;
  return bed;
}

/** The next bot process against the same fake Discord and database (a restart): it starts from the saved sessions. */
export function restartBotBed(database: TestDatabase, previous: Pick<BotBed, 'fake' | 'gateway' | 'clock'>, botOptions: BotOptions = {}, depOverrides: Partial<BotDeps> = {}): Promise<BotBed> {
  return botBedOn(database, previous.fake, previous.gateway, previous.clock.now(), botOptions, depOverrides, {});
}

async function botBedOn(
  database: TestDatabase,
  fake: FakeDiscord,
  gateway: FakeGateway,
  now: Date,
  botOptions: BotOptions,
  depOverrides: Partial<BotDeps>,
  env: Record<string, string>,
): Promise<BotBed> {
  const clock = fixedClock(now);
  const config = loadConfig({ PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, BOT_PORT: '0', ...env });
  const logger = createLogger('silent', 'bot-test');
  const built = createBotDeps(config, database.db, clock, logger, {}, depOverrides);
  // Pages of 2, on the bot's own client: reconciliation is tested across pages.
  const deps = { ...built, memberList: depOverrides.memberList ?? discordMemberList({ rest: built.rest, pageSize: 2 }) };
  const bot = await startBot(config, deps, botOptions);
  return {
    fake,
    gateway,
    bot,
    config,
    clock,
    async dispatch(t, d) {
      const seq = gateway.dispatch(t, d);
      await handledSeq(bot, seq);
      return seq;
    },
    answersTo: (token) => fake.state.interactionAnswers.filter((a) => a.token === token),
    async close() {
      await bot.stop();
      await fake.close();
    },
  };
}

/** Resolves once the bot is done with the dispatch of this sequence (servers are handled side by side). */
export function handledSeq(bot: RunningBot, seq: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const on = (_t: string, s: number) => {
      if (s !== seq) return;
      bot.events.off('handled', on);
      resolve();
    };
    bot.events.on('handled', on);
  });
}

/** A bot bed whose fake Discord holds a server the bot has synced (GUILD_CREATE handled), on Pro with `features` on. */
export async function startBotBedOnServer(
  database: TestDatabase,
  now: Date,
  features: GuildRecord['features'],
  depOverrides: Partial<BotDeps> = {},
): Promise<{ bed: BotBed; server: FakeServer }> {
  const bed = await startBotBed(database, now, {}, {}, depOverrides);
  const server = seedFakeServer(bed.fake);
  await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, server.id));
  await changeGuild(database.db, server.id, { plan: 'pro', features }, { type: 'system' });
  return { bed, server };
}
