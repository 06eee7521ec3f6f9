import { afterEach, describe, expect, it } from 'vitest';
import { clearGatewaySessions } from '../../db/bot/gatewaySessions.js';
import { clearIdentifySlots } from '../../db/bot/identifySlots.js';
import { createBotDeps } from '../../process/bot/botDeps.js';
import { startBot, type RunningBot } from '../../process/bot/startBot.js';
import { attachFakeGateway, IDENTIFY_WINDOW_MS, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { fixedClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { useTestDatabase } from '../harness/database.js';
import { identifyRaw } from './rawGateway.js';

// Discord lets max_concurrency shards identify per 5 s (one per rate-limit key, shard id % max_concurrency), across
// every connection of the bot: an IDENTIFY over it is answered op 9, invalid session. Bot processes started together
// share one throttler through PostgreSQL, so none is refused.

const database = useTestDatabase();
let fake: FakeDiscord | undefined;
const bots: RunningBot[] = [];
afterEach(async () => {
  await Promise.all(bots.splice(0).map((b) => b.stop()));
  await fake?.close();
});

describe('identify concurrency', () => {
  it('the fake answers op 9 to an identify of the same rate-limit key within 5 s, and READY to one of another key', async () => {
    fake = await startFakeDiscord();
    const gateway = attachFakeGateway(fake, { shards: 4, maxConcurrency: 2 });
    expect((await identifyRaw(gateway.url, fake.token, [0, 4])).t).toBe('READY');
    // Shard 1 is key 1: its own slot.
    expect((await identifyRaw(gateway.url, fake.token, [1, 4])).t).toBe('READY');
    // Shard 2 is key 0 again, within 5 s of shard 0.
    expect(await identifyRaw(gateway.url, fake.token, [2, 4])).toMatchObject({ op: 9, d: false });
    expect(gateway.refusedIdentifies.map((i) => i.shard)).toEqual([[2, 4]]);
  });

  it('two bot processes started together identify shards of one key 5 s apart: Discord refuses none', async () => {
    fake = await startFakeDiscord();
    const gateway = attachFakeGateway(fake, { shards: 2, maxConcurrency: 1 });
    await clearGatewaySessions(database.db);
    await clearIdentifySlots(database.db);
    const identifiedAt: number[] = [];
    gateway.events.on('identify', () => identifiedAt.push(performance.now()));
    const start = (shard: string) => {
      const config = loadConfig({ PLATFORM: 'discord', DISCORD_TOKEN: fake!.token, DISCORD_API_URL: fake!.apiUrl, DISCORD_SHARD_COUNT: '2', DISCORD_SHARD_IDS: shard });
      const deps = createBotDeps(config, database.db, fixedClock(new Date('2026-11-25T12:00:00Z')), createLogger('silent', 'bot-test'));
      return startBot(config, deps).then((bot) => (bots.push(bot), bot));
    };
    await Promise.all([start('0'), start('1')]);

    expect(gateway.refusedIdentifies).toEqual([]);
    expect(gateway.identifies.map((i) => i.shard![0]).sort()).toEqual([0, 1]);
    expect(identifiedAt[1]! - identifiedAt[0]!).toBeGreaterThanOrEqual(IDENTIFY_WINDOW_MS);
    expect(gateway.sessionOf(0)?.ended).toBeNull();
    expect(gateway.sessionOf(1)?.ended).toBeNull();
  }, 30_000);
});
