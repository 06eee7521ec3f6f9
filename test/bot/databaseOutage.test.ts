import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate.js';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import { startEmbeddedPostgres, withDatabase, ensureDatabase, type RunningPostgres } from '../../process/infra/embeddedPostgres.js';
import { freePort } from '../../process/infra/freePort.js';
import { attachFakeGateway, startFakeDiscord, type FakeDiscord, type FakeGateway } from '../../process/infra/fakeDiscord/index.js';
import { XP_PER_MESSAGE } from '../../src/levels/activityXp.js';
import { eventually } from '../harness/eventually.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { memberMessage } from './payloads.js';

// `npm run bot` as a process, with a PostgreSQL of this test's own that the test stops for 30 s while messages keep
// arriving from the fake gateway: the bot retries, nothing is lost, nothing is counted twice, the process lives on.

const OUTAGE_MS = 30_000;
const ARRIVAL_EVERY_MS = 500;

let dataDir: string;
let port: number;
let postgres: RunningPostgres;
let url: string;
let database: DatabaseHandle;
let fake: FakeDiscord;
let gateway: FakeGateway;
let bot: ChildProcess;
let exited = false;
const botLines: string[] = [];
let guild: TestGuild;

const startPostgres = () => startEmbeddedPostgres({ dataDir, port, persistent: true });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cb-bot-outage-pg-'));
  port = await freePort();
  postgres = await startPostgres();
  await ensureDatabase(postgres.url, 'bot');
  url = withDatabase(postgres.url, 'bot');
  database = createDatabase(url, 3);
  await migrateToLatest(database.db);
  guild = await createTestGuild(database.db);

  fake = await startFakeDiscord();
  gateway = attachFakeGateway(fake);
  const ready = once(gateway.events, 'ready');
  bot = spawn('node_modules/.bin/tsx', ['process/entrypoints/bot.ts'], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, BOT_PORT: '0' },
  });
  bot.stdout!.on('data', (chunk: Buffer) => botLines.push(...String(chunk).split('\n').filter(Boolean)));
  bot.on('exit', () => (exited = true));
  await ready;
}, 120_000);

afterAll(async () => {
  if (bot && !exited) {
    const gone = once(bot, 'exit');
    bot.kill('SIGTERM');
    await gone;
  }
  await database?.close();
  await fake?.close();
  await postgres?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const counted = async () => {
  const rows = await database.db.selectFrom('level_members').select(['user_id', 'xp', 'messages']).where('guild_id', '=', guild.id).execute();
  return new Map(rows.map((r) => [r.user_id, r]));
};
const logged = (msg: string) => botLines.filter((line) => (JSON.parse(line) as { msg: string }).msg === msg).length;

describe('the bot while its database is stopped', () => {
  it('retries every message until the database is back and counts each exactly once, without exiting', async () => {
    // One author per message: each message's XP is seen on its own row (no cooldown between them).
    const sent: Array<{ id: string; author: string }> = [];
    const send = () => {
      const author = snowflake();
      const m = memberMessage(guild.id, author, new Date());
      sent.push({ id: m.id, author });
      gateway.dispatch('MESSAGE_CREATE', m);
      return m;
    };
    send();
    await eventually(counted, (c) => c.size === 1);

    await postgres.stop();
    const stoppedAt = Date.now();
    // Messages keep arriving through the outage; one of them Discord delivers twice.
    const twice = send();
    gateway.dispatch('MESSAGE_CREATE', twice);
    while (Date.now() - stoppedAt < OUTAGE_MS) {
      send();
      await new Promise((resolve) => setTimeout(resolve, ARRIVAL_EVERY_MS));
    }
    expect(exited).toBe(false);
    expect(logged('gateway event handling retried: a dependency is out')).toBeGreaterThan(3);
    postgres = await startPostgres();

    const after = await eventually(counted, (c) => c.size === sent.length, 60_000);
    expect(after.size).toBe(sent.length);
    for (const { author } of sent) expect(after.get(author)).toMatchObject({ xp: XP_PER_MESSAGE, messages: 1 });
    const countedIds = await database.db.selectFrom('level_counted_messages').select('message_id').where('guild_id', '=', guild.id).execute();
    expect(countedIds.map((r) => r.message_id).sort()).toEqual(sent.map((m) => m.id).sort());
    expect(await database.db.selectFrom('audit_log').select('id').where('guild_id', '=', guild.id).where('action', '=', 'levels.activity').execute()).toHaveLength(sent.length);
    expect(logged('gateway event handling failed')).toBe(0);
    expect(exited).toBe(false);
  }, 180_000);
});
