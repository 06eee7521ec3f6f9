import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { migrateToLatest } from '../../db/migrate.js';
import { saveLevelSettings } from '../../db/levels/members.js';
import { createDatabase } from '../../db/pool.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createGuild } from '../../src/guild/guildManagement.js';
import { XP_PER_MESSAGE } from '../../src/levels/activityXp.js';
import { messageIdAt } from '../../src/tickets/botInput.js';
import { createBotDeps } from '../../process/bot/botDeps.js';
import { startBot } from '../../process/bot/startBot.js';
import { attachFakeGateway, memberMessagePayload, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { ensureDatabase, startEmbeddedPostgres, withDatabase } from '../../process/infra/embeddedPostgres.js';
import { freePort } from '../../process/infra/freePort.js';
import { benchSnowflake } from '../botBench.js';
import { latencySummary, type LatencySummary } from '../latency.js';

export interface GatewayIngestStep {
  ratePerSecond: number;
  sent: number;
  /** Handled (XP committed) within the grace after the step's last send. */
  committed: number;
  keptUp: boolean;
  dispatchToCommitMs: LatencySummary;
}

export interface GatewayIngestResult {
  scenario: 'gateway-ingest';
  guilds: number;
  membersPerGuild: number;
  /** At 200 messages/s for `latencySeconds`: from the fake sending MESSAGE_CREATE to the bot's commit of its XP. */
  latencyAt200: GatewayIngestStep;
  /** Rising rates, `stepSeconds` each, until one is not kept up with. */
  steps: GatewayIngestStep[];
  /** The highest rate whose messages were all committed within the grace after its last send. */
  maxKeptUpRatePerSecond: number;
  /** Every message sent earned its XP once: counted messages and XP against what was sent. */
  messagesSent: number;
  messagesCounted: number;
  xpExpected: number;
  xpApplied: number;
}

const GUILDS = 20;
const MEMBERS = 1_000;
const STEP_SECONDS = 5;
const LATENCY_SECONDS = 10;
const WARM_UP_SECONDS = 2;
const GRACE_MS = 1_000;
const RATES = [500, 1_000, 1_500, 2_000, 2_500, 3_000, 4_000, 5_000];

/**
 * One bot process (startBot with its dispatch queue, against a PostgreSQL of its own) fed MESSAGE_CREATE by the fake
 * gateway over a real WebSocket: members of 20 servers writing (cooldown 0, so every message earns XP). After a
 * 2 s warm-up, 200 messages/s for the dispatch-to-commit latency, then rising rates until the bot no longer commits a step's messages
 * within a second of its last send. The fake, the bot and PostgreSQL share the machine (2 cores on the reference).
 */
export async function runGatewayIngest(): Promise<GatewayIngestResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cb-bench-gateway-pg-'));
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: false });
  const fake = await startFakeDiscord();
  const gateway = attachFakeGateway(fake);
  await ensureDatabase(postgres.url, 'bench');
  const url = withDatabase(postgres.url, 'bench');
  const config = loadConfig({ PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DATABASE_POOL_MAX: '20' });
  const database = createDatabase(url, config.database.poolMax);
  try {
    await migrateToLatest(database.db);
    const guildIds = Array.from({ length: GUILDS }, () => benchSnowflake());
    for (const id of guildIds) {
      await createGuild(database.db, { id, name: 'bench', icon: null, locale: 'en', plan: 'pro', features: ['levels'], blocked: false, ownerId: benchSnowflake(), botUserId: fake.state.bot.id, actor: { type: 'system' } });
      await saveLevelSettings(database.db, id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, messageCooldownSeconds: 0 });
    }
    const users = Array.from({ length: MEMBERS }, () => benchSnowflake());
    const logger = pino({ level: 'silent' });
    const bot = await startBot(config, createBotDeps(config, database.db, systemClock, logger));
    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    bot.events.on('handled', (t: string, s: number) => {
      const at = sentAt.get(s);
      if (t !== 'MESSAGE_CREATE' || at === undefined) return;
      sentAt.delete(s);
      latencies.push(performance.now() - at);
    });
    let sentTotal = 0;
    const send = () => {
      const guildId = guildIds[randomInt(GUILDS)]!;
      const s = gateway.dispatch('MESSAGE_CREATE', message(guildId, users[randomInt(MEMBERS)]!));
      sentAt.set(s, performance.now());
      sentTotal += 1;
    };
    const step = async (rate: number, seconds: number): Promise<GatewayIngestStep> => {
      latencies.length = 0;
      const total = rate * seconds;
      const started = performance.now();
      let sent = 0;
      // Paced in 5 ms ticks, catching up on the ticks the timer was late for.
      while (sent < total) {
        const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
        while (sent < due) {
          send();
          sent += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const deadline = performance.now() + GRACE_MS;
      while (latencies.length < total && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const committed = latencies.length;
      const summary = latencySummary(latencies);
      // What is still queued is let through before the next step, so steps do not add up.
      while (sentAt.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      return { ratePerSecond: rate, sent, committed, keptUp: committed === total, dispatchToCommitMs: summary };
    };

    // Warm-up, not reported: the pool's connections opened, the code paths compiled.
    await step(200, WARM_UP_SECONDS);
    const latencyAt200 = await step(200, LATENCY_SECONDS);
    const steps: GatewayIngestStep[] = [];
    for (const rate of RATES) {
      const result = await step(rate, STEP_SECONDS);
      steps.push(result);
      if (!result.keptUp) break;
    }
    await bot.stop();
    const counted = await database.db.selectFrom('level_counted_messages').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const xp = await database.db.selectFrom('level_members').select((eb) => eb.fn.sum<string>('xp').as('xp')).executeTakeFirstOrThrow();
    return {
      scenario: 'gateway-ingest',
      guilds: GUILDS,
      membersPerGuild: MEMBERS,
      latencyAt200,
      steps,
      maxKeptUpRatePerSecond: Math.max(0, ...steps.filter((s) => s.keptUp).map((s) => s.ratePerSecond)),
      messagesSent: sentTotal,
      messagesCounted: Number(counted.n),
      xpExpected: sentTotal * XP_PER_MESSAGE,
      xpApplied: Number(xp.xp),
    };
  } finally {
    await database.close();
    await fake.close();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

let messageSeq = 0;
function message(guildId: string, authorId: string) {
  const at = new Date();
  return memberMessagePayload({ id: messageIdAt(at, ++messageSeq), channelId: '1300000000000000001', guildId, author: { id: authorId, username: 'member' }, at });
}
