import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixedClock, systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import { createBanLatch } from '../../src/platform/discord/banLatch.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { createDiscordRest } from '../../src/platform/discord/discordRest.js';
import { discordEgressHandler } from '../../process/egress/discordEgress.js';
import { startDiscordEgress } from '../../process/egress/startEgress.js';
import { addGuild, cloudflareBan, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { shareLatch, type LatchSharing } from '../../process/latchSharing.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';

// The fleet's one way to Discord (@discordjs/proxy in process/egress) and the fleet-wide ban latch (platform_blocks
// and LISTEN/NOTIFY), against the fake over real sockets and the test's own PostgreSQL.

const NOW = new Date('2026-06-01T12:00:00.000Z');
const HOUR_MS = 3_600_000;
const database = useTestDatabase();
const silent = pino({ level: 'silent' });
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function fakeWithGuild(rateLimits?: NonNullable<Parameters<typeof startFakeDiscord>[0]>['rateLimits']) {
  const fake = await startFakeDiscord(rateLimits ? { rateLimits } : {});
  closing.push(() => fake.close());
  const guildId = snowflake();
  addGuild(fake.state, {
    id: guildId,
    name: 'Egress',
    ownerId: snowflake(),
    roles: [{ id: snowflake(), name: 'Member', position: 1 }],
    channels: [],
    members: [{ id: fake.state.bot.id, username: 'Community Bot', bot: true }],
  });
  return { fake, guildId };
}

async function egressTo(fake: FakeDiscord, latch = createBanLatch({ clock: systemClock, logger: silent })): Promise<string> {
  const server: Server = createServer(discordEgressHandler({ upstreamUrl: fake.apiUrl, latch, logger: silent }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

/** A process's one client, with a latch of its own (two of them stand for two processes). */
const client = (fake: FakeDiscord, apiUrl: string): REST => createDiscordRest({ token: fake.token, apiUrl, latch: createBanLatch({ clock: systemClock, logger: silent }) });

/** Two processes reading one route of one server at once, `each` times each. */
async function twoProcessesRead(fake: FakeDiscord, apiUrl: string, guildId: string, each: number) {
  const from = fake.requests.length;
  const processes = [client(fake, apiUrl), client(fake, apiUrl)];
  await Promise.all(processes.map(async (rest) => Promise.all(Array.from({ length: each }, () => rest.get(Routes.guildRoles(guildId))))));
  return fake.requests.slice(from);
}

function logLines() {
  const lines: Array<{ msg: string; setBy?: string; reason?: string }> = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()) }));
  return { lines, logger };
}

describe('one rate-limit authority for the fleet', () => {
  const tight = { route: { limit: 5, windowMs: 500 }, globalPerSecond: 50 };

  it('two processes through the egress share one bucket: Discord answers no 429', async () => {
    const { fake, guildId } = await fakeWithGuild(tight);
    const seen = await twoProcessesRead(fake, await egressTo(fake), guildId, 8);
    expect(seen).toHaveLength(16);
    expect(seen.filter((r) => r.status === 429)).toEqual([]);
    expect(fake.invalidRequests()).toBe(0);
  });

  it('the same two processes straight to Discord each learn the bucket alone and meet 429s', async () => {
    const { fake, guildId } = await fakeWithGuild(tight);
    const seen = await twoProcessesRead(fake, fake.apiUrl, guildId, 8);
    expect(seen.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(fake.invalidRequests()).toBeGreaterThan(0);
  });

  it('passes the caller’s token on, and Discord’s answers back (a 404 as a 404)', async () => {
    const { fake, guildId } = await fakeWithGuild();
    const platform = createDiscordPlatform({ token: fake.token, apiUrl: await egressTo(fake), clock: fixedClock(NOW), logger: silent });
    expect(await platform.listRoles(guildId)).toHaveLength(2);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: `/guilds/${guildId}/roles`, status: 200 });
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bot ${fake.token}`);
    await expect(platform.getGuild(snowflake(), { fresh: true })).resolves.toBeUndefined();
    expect(fake.requests.at(-1)!.status).toBe(404);
  });
});

describe('the fleet-wide ban latch', () => {
  function sharedProcess(name: string, clock: ReturnType<typeof fixedClock>, logger = silent): { latch: ReturnType<typeof createBanLatch>; sharing: LatchSharing } {
    const latch = createBanLatch({ clock, logger });
    const sharing = shareLatch({ latch, db: database.db, listenUrl: database.url, clock, logger, name });
    closing.push(() => sharing.close());
    return { latch, sharing };
  }

  it('a Cloudflare 429 met by one process stops another through platform_blocks and NOTIFY: nothing is sent until it passes', async () => {
    await database.db.deleteFrom('platform_blocks').execute();
    const { fake, guildId } = await fakeWithGuild();
    const clock = fixedClock(NOW);
    const b = logLines();
    const first = sharedProcess('worker-1', clock);
    const second = sharedProcess('worker-2', clock, b.logger);
    const one = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock, logger: silent, latch: first.latch });
    const two = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock, logger: silent, latch: second.latch });

    fake.fail({ answer: cloudflareBan(3600) });
    await expect(one.listRoles(guildId)).rejects.toThrow(PlatformUnavailableError);
    const until = new Date(NOW.getTime() + HOUR_MS).toISOString();
    await vi.waitFor(() => expect(second.latch.state().blocked).toBe(true));
    expect(second.latch.state()).toEqual({ blocked: true, blockedUntil: until, reason: 'cloudflare', setBy: expect.stringMatching(/^worker-1 /) });
    const row = await database.db.selectFrom('platform_blocks').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ platform: 'discord', reason: 'cloudflare', blocked_until: new Date(until) });
    expect(b.lines.filter((l) => l.msg.startsWith('Discord requests of the fleet are stopped'))).toHaveLength(1);

    const sent = fake.requests.length;
    const refused = await two.listRoles(guildId).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(PlatformUnavailableError);
    expect((refused as PlatformUnavailableError).retryAfterSeconds).toBe(3600);
    clock.advance(HOUR_MS - 1_000);
    await expect(two.listChannels(guildId)).rejects.toThrow(PlatformUnavailableError);
    expect(fake.requests.length).toBe(sent);

    clock.advance(1_000);
    expect(await two.listRoles(guildId)).toHaveLength(2);
    expect(fake.requests.length).toBe(sent + 1);
  });

  it('a process that starts during a block reads it from platform_blocks and sends nothing', async () => {
    await database.db.deleteFrom('platform_blocks').execute();
    const clock = fixedClock(NOW);
    const first = sharedProcess('bot-1', clock);
    first.latch.observe(429, new Headers({ 'retry-after': '120', 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' }));
    await vi.waitFor(async () => expect(await database.db.selectFrom('platform_blocks').select('reason').executeTakeFirst()).toEqual({ reason: 'global' }));
    const later = sharedProcess('api-2', clock);
    await vi.waitFor(() => expect(later.latch.state()).toMatchObject({ blocked: true, reason: 'global', blockedUntil: new Date(NOW.getTime() + 120_000).toISOString() }));
  });

  it('the egress answers the caller that met the ban, and every later caller, without a request to Discord', async () => {
    const { fake, guildId } = await fakeWithGuild();
    const clock = fixedClock(NOW);
    const apiUrl = await egressTo(fake, createBanLatch({ clock, logger: silent }));
    const callers = [createBanLatch({ clock, logger: silent }), createBanLatch({ clock, logger: silent })];
    const [one, two] = callers.map((latch) => createDiscordPlatform({ token: fake.token, apiUrl, clock, logger: silent, latch }));

    fake.fail({ answer: cloudflareBan(3600) });
    await expect(one!.listRoles(guildId)).rejects.toThrow(PlatformUnavailableError);
    expect(callers[0]!.state()).toMatchObject({ blocked: true, reason: 'cloudflare', setBy: 'the Discord egress' });
    const sent = fake.requests.length;
    await expect(two!.listRoles(guildId)).rejects.toThrow(PlatformUnavailableError);
    expect(callers[1]!.state()).toMatchObject({ blocked: true, reason: 'cloudflare', setBy: 'the Discord egress' });
    expect(fake.requests.length).toBe(sent);
  });

  it('/readyz of the egress names the stop and who met it', async () => {
    const clock = fixedClock(NOW);
    const latch = createBanLatch({ clock, logger: silent });
    const config = loadConfig({ HOST: '127.0.0.1' });
    const egress = await startDiscordEgress(config, database.db, silent, { upstreamUrl: 'http://127.0.0.1:9/api', port: 0, latch });
    closing.push(() => egress.close());
    const ready = async () => (await fetch(`${egress.origin}/readyz`)).json();
    expect(await ready()).toMatchObject({ discord: { blocked: false, blockedUntil: null, reason: null, setBy: null } });
    latch.impose(new Date(NOW.getTime() + HOUR_MS), 'cloudflare', 'worker-1 host:12');
    expect(await ready()).toMatchObject({
      status: 'ready',
      discord: { blocked: true, blockedUntil: new Date(NOW.getTime() + HOUR_MS).toISOString(), reason: 'cloudflare', setBy: 'worker-1 host:12' },
    });
  });
});
