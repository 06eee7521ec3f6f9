import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../db/migrate.js';
import { saveLevelSettings } from '../../db/levels/members.js';
import { createDatabase } from '../../db/pool.js';
import type { Database } from '../../db/schema.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createGuild } from '../../src/guild/guildManagement.js';
import { XP_PER_MESSAGE } from '../../src/levels/activityXp.js';
import { createBotDeps } from '../../process/bot/botDeps.js';
import { startBot } from '../../process/bot/startBot.js';
import { ensureDatabase, startEmbeddedPostgres, withDatabase } from '../../process/infra/embeddedPostgres.js';
import { freePort } from '../../process/infra/freePort.js';
import { benchSnowflake } from '../botBench.js';
import { forkFakeGateway, type FakeGatewayClient } from '../fakeGatewayClient.js';
import { latencySummary, type LatencySummary } from '../latency.js';

export interface GatewayIngestStep {
  ratePerSecond: number;
  sent: number;
  /** Handled (XP committed) within the grace after the step's last send. */
  committed: number;
  keptUp: boolean;
  dispatchToCommitMs: LatencySummary;
}

/** One bot started with one DISCORD_GATEWAY_COMPRESSION, through the warm-up, the 200/s step and the rising rates. */
export interface GatewayIngestRun {
  compression: 'zlib-stream' | 'none';
  /** At 200 messages/s for `latencySeconds`: from the fake sending MESSAGE_CREATE to the bot's commit of its XP. */
  latencyAt200: GatewayIngestStep;
  /** Rising rates, `stepSeconds` each, until one is not kept up with. */
  steps: GatewayIngestStep[];
  /** The highest rate whose messages were all committed within the grace after its last send. */
  maxKeptUpRatePerSecond: number;
  /** Every message sent earned its XP once: counted messages and XP against what was sent in this run. */
  messagesSent: number;
  messagesCounted: number;
  xpExpected: number;
  xpApplied: number;
  /** CPU per message sent: the bot's process (the measured one) and the fake's (its JSON and deflate), apart. */
  botCpuMicrosPerMessage: number;
  fakeCpuMicrosPerMessage: number;
  /** Gateway bytes per message as they crossed the wire (deflated with zlib-stream): what compression saves. */
  wireBytesPerMessage: number;
}

export interface GatewayIngestResult {
  scenario: 'gateway-ingest';
  guilds: number;
  membersPerGuild: number;
  stepSeconds: number;
  /** Compression on and off in turn (`--ingest-rounds` pairs, the order swapped every round), on one database. */
  runs: GatewayIngestRun[];
}

export interface GatewayIngestOptions {
  rates: number[];
  stepSeconds: number;
  rounds: number;
}

const GUILDS = 20;
const MEMBERS = 1_000;
const LATENCY_SECONDS = 10;
const WARM_UP_SECONDS = 2;
const GRACE_MS = 1_000;

/** Epoch milliseconds with the sub-millisecond part, as the fake's process stamps its sends. */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One bot process (startBot with its dispatch queue, against a PostgreSQL of its own) fed MESSAGE_CREATE by the fake
 * gateway over a real WebSocket: members of 20 servers writing (cooldown 0, so every message earns XP). The fake
 * Discord runs in a process of its own (bench/fakeGatewayProcess.ts): its deflate, Discord's side of zlib-stream, is
 * not charged to the bot. For each compression setting: after a 2 s warm-up, 200 messages/s for the
 * dispatch-to-commit latency, then rising rates until the bot no longer commits a step's messages within a second of
 * its last send. The fake, the bot and PostgreSQL share the machine (2 cores on the reference).
 */
export async function runGatewayIngest(o: GatewayIngestOptions): Promise<GatewayIngestResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cb-bench-gateway-pg-'));
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: false });
  const sentAt = new Map<number, number>();
  const handledAt = new Map<number, number>();
  const latencies: number[] = [];
  // The fake's batch times and the bot's commits arrive in either order; the second of the two makes the latency.
  const match = (s: number) => {
    const sent = sentAt.get(s);
    const handled = handledAt.get(s);
    if (sent === undefined || handled === undefined) return;
    sentAt.delete(s);
    handledAt.delete(s);
    latencies.push(handled - sent);
  };
  const fake = await forkFakeGateway((firstSeq, count, at) => {
    for (let s = firstSeq; s < firstSeq + count; s++) {
      sentAt.set(s, at);
      match(s);
    }
  });
  await ensureDatabase(postgres.url, 'bench');
  const database = createDatabase(withDatabase(postgres.url, 'bench'), 20);
  try {
    await migrateToLatest(database.db);
    const guildIds = await seedGuilds(database.db, fake.botId);
    const users = Array.from({ length: MEMBERS }, () => benchSnowflake());
    const runs: GatewayIngestRun[] = [];
    for (let round = 0; round < o.rounds; round++) {
      const order = round % 2 === 0 ? (['zlib-stream', 'none'] as const) : (['none', 'zlib-stream'] as const);
      for (const compression of order) {
        const config = loadConfig({ PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DATABASE_POOL_MAX: '20', DISCORD_GATEWAY_COMPRESSION: compression });
        const bot = await startBot(config, createBotDeps(config, database.db, systemClock, pino({ level: 'silent' })));
        bot.events.on('handled', (t: string, s: number) => {
          if (t !== 'MESSAGE_CREATE') return;
          handledAt.set(s, now());
          match(s);
        });
        const before = await totals(database.db);
        const cpuBefore = process.cpuUsage();
        const fakeBefore = await fake.usage();
        const ladder = await runLadder(o, fake, () => [guildIds[randomInt(GUILDS)]!, users[randomInt(MEMBERS)]!], latencies, () => sentAt.size + handledAt.size);
        // Stopped with a resumable close: the next run's bot resumes the session it saved.
        await bot.stop();
        const botCpu = process.cpuUsage(cpuBefore);
        const fakeAfter = await fake.usage();
        const after = await totals(database.db);
        runs.push({
          compression,
          ...ladder,
          messagesCounted: after.counted - before.counted,
          xpExpected: ladder.messagesSent * XP_PER_MESSAGE,
          xpApplied: after.xp - before.xp,
          botCpuMicrosPerMessage: Math.round((botCpu.user + botCpu.system) / ladder.messagesSent),
          fakeCpuMicrosPerMessage: Math.round((fakeAfter.cpuMicros - fakeBefore.cpuMicros) / ladder.messagesSent),
          wireBytesPerMessage: Math.round((fakeAfter.bytesSent - fakeBefore.bytesSent) / ladder.messagesSent),
        });
      }
    }
    return { scenario: 'gateway-ingest', guilds: GUILDS, membersPerGuild: MEMBERS, stepSeconds: o.stepSeconds, runs };
  } finally {
    await database.close();
    await fake.close();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The warm-up (not reported), 200/s for the latency, then the rising rates until one is not kept up with. */
async function runLadder(o: GatewayIngestOptions, fake: FakeGatewayClient, pick: () => [string, string], latencies: number[], unmatched: () => number) {
  let messagesSent = 0;
  const step = async (rate: number, seconds: number): Promise<GatewayIngestStep> => {
    latencies.length = 0;
    const total = rate * seconds;
    const started = performance.now();
    let sent = 0;
    // Paced in 5 ms ticks, catching up on the ticks the timer was late for; one batch to the fake per tick.
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      if (due > sent) fake.send(Array.from({ length: due - sent }, pick));
      sent = due;
      await sleep(5);
    }
    messagesSent += sent;
    const deadline = performance.now() + GRACE_MS;
    while (latencies.length < total && performance.now() < deadline) await sleep(10);
    const committed = latencies.length;
    const summary = latencySummary(latencies);
    // What is still queued is let through before the next step, so steps do not add up.
    while (latencies.length < total || unmatched() > 0) await sleep(20);
    return { ratePerSecond: rate, sent, committed, keptUp: committed === total, dispatchToCommitMs: summary };
  };
  // Warm-up, not reported: the pool's connections opened, the code paths compiled.
  await step(200, WARM_UP_SECONDS);
  const latencyAt200 = await step(200, LATENCY_SECONDS);
  const steps: GatewayIngestStep[] = [];
  for (const rate of o.rates) {
    const result = await step(rate, o.stepSeconds);
    steps.push(result);
    if (!result.keptUp) break;
  }
  return { latencyAt200, steps, maxKeptUpRatePerSecond: Math.max(0, ...steps.filter((s) => s.keptUp).map((s) => s.ratePerSecond)), messagesSent };
}

async function seedGuilds(db: Kysely<Database>, botUserId: string): Promise<string[]> {
  const guildIds = Array.from({ length: GUILDS }, () => benchSnowflake());
  for (const id of guildIds) {
    await createGuild(db, { id, name: 'bench', icon: null, locale: 'en', plan: 'pro', features: ['levels'], blocked: false, ownerId: benchSnowflake(), botUserId, actor: { type: 'system' } });
    await saveLevelSettings(db, id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, messageCooldownSeconds: 0 });
  }
  return guildIds;
}

async function totals(db: Kysely<Database>): Promise<{ counted: number; xp: number }> {
  const counted = await db.selectFrom('level_counted_messages').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const xp = await db.selectFrom('level_members').select((eb) => eb.fn.sum<string>('xp').as('xp')).executeTakeFirstOrThrow();
  return { counted: Number(counted.n), xp: Number(xp.xp ?? 0) };
}
