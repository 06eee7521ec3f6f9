import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotProbes } from '../../process/bot/botProbes.js';
import { fixedClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createBanLatch } from '../../src/platform/discord/banLatch.js';
import type { GracefulServer } from '../../process/ops/gracefulServer.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { createTestGuild, snowflake } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { memberMessage } from './payloads.js';

// The bot's own probes and metrics on BOT_PORT: its shards' state and the age of their last dispatch, so an
// operator sees a gateway that stalled or that Discord ended.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed;
let probes: GracefulServer;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
  probes = await startBotProbes(bed.config, database.db, bed.bot);
});
afterAll(async () => {
  await probes?.close();
  await bed?.close();
});

const get = async (path: string) => {
  const res = await fetch(`${probes.origin}${path}`);
  return { status: res.status, text: await res.text() };
};

describe('the bot probes', () => {
  it('answer /livez, and /readyz with every shard ready, the age of its last dispatch and the queue', async () => {
    expect(await get('/livez')).toEqual({ status: 200, text: JSON.stringify({ status: 'ok' }) });
    const guild = await createTestGuild(database.db);
    await bed.dispatch('MESSAGE_CREATE', memberMessage(guild.id, snowflake(), NOW));
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({
      status: 'ready',
      checks: { gateway: 'ok' },
      dependencies: { database: 'ok' },
      shards: [{ id: 0, status: 'ready', lastEventAgeSeconds: expect.any(Number) }],
      queued: 0,
    });
  });

  it("show Discord's ban stop in /readyz detail, still ready: a restart would not end it", async () => {
    const clock = fixedClock(NOW);
    const latch = createBanLatch({ clock, logger: createLogger('silent', 'probe-test') });
    const withLatch = await startBotProbes(bed.config, database.db, bed.bot, latch);
    try {
      const read = async () => JSON.parse(await (await fetch(`${withLatch.origin}/readyz`)).text());
      expect((await read()).discord).toEqual({ blocked: false, blockedUntil: null, reason: null, setBy: null });
      latch.observe(429, new Headers({ 'retry-after': '900' }));
      const blocked = await fetch(`${withLatch.origin}/readyz`);
      expect(blocked.status).toBe(200);
      expect(JSON.parse(await blocked.text()).discord).toEqual({ blocked: true, blockedUntil: '2026-11-25T12:15:00.000Z', reason: 'cloudflare', setBy: 'this process' });
      clock.advance(900_000);
      expect((await read()).discord).toMatchObject({ blocked: false });
    } finally {
      await withLatch.close();
    }
  });

  it('expose the events by type, the queue depth, retries and the dispatch-to-commit time on /metrics', async () => {
    const { status, text } = await get('/metrics');
    expect(status).toBe(200);
    expect(text).toMatch(/^bot_gateway_events_total\{type="MESSAGE_CREATE"\} [1-9]/m);
    expect(text).toMatch(/^bot_dispatch_queue_depth 0$/m);
    expect(text).toContain('# TYPE bot_dispatch_retries_total counter');
    expect(text).toMatch(/^bot_dispatch_handled_seconds_count\{type="MESSAGE_CREATE"\} [1-9]/m);
  });

  it('answer 503 with the shard idle once Discord ended its session for good', async () => {
    bed.gateway.closeWith(4014, 'Disallowed intent(s).');
    await bed.bot.fatal;
    const res = await eventually(() => get('/readyz'), (r) => r.status === 503);
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toMatchObject({ status: 'not_ready', checks: { gateway: 'down' }, dependencies: { database: 'ok' }, shards: [{ id: 0, status: 'idle' }] });
  });
});
