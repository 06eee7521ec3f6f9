import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/clock.js';
import { useTestDatabase } from '../harness/database.js';
import { bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { startTestApp, useTestApp } from '../harness/testApp.js';

const database = useTestDatabase();
// 12:00:20 → the fixed window ends in 40 s.
const clock = fixedClock(new Date('2026-11-22T12:00:20Z'));
const app = useTestApp(() => database.db, { clock });

async function keyOn(plan: 'free' | 'pro', scopes: Array<'guild:read' | 'bank:read'> = ['guild:read']) {
  const guild = await createTestGuild(database.db, { plan });
  const { key } = await createTestKey(database.db, guild, { scopes });
  return { guild, key };
}

/** Sends `count` requests, at most 20 at a time. */
async function burst(count: number, send: () => ReturnType<typeof app.http>) {
  const statuses: number[] = [];
  for (let done = 0; done < count; done += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - done) }, send));
    statuses.push(...batch.map((r) => r.status));
  }
  return statuses;
}

describe('per-key rate limit', () => {
  it('sets X-RateLimit-* on every authenticated response, errors included', async () => {
    const { guild, key } = await keyOn('free');
    const ok = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(ok.headers).toMatchObject({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '40' });
    const forbidden = await app.http('GET', `/guilds/${guild.id}/bank/leaderboard`, { headers: bearer(key) });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers).toMatchObject({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '58' });
  });

  it.each([
    ['free', 60],
    ['pro', 600],
  ] as const)('on %s answers 429 RATE_LIMITED after %i requests a minute, with Retry-After = X-RateLimit-Reset', async (plan, limit) => {
    const { guild, key } = await keyOn(plan);
    const statuses = await burst(limit, () => app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) }));
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String) });
    expect(over.headers['retry-after']).toBe('40');
    expect(over.headers['x-ratelimit-reset']).toBe('40');
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('counts per key, starts again in the next window, and is shared by every api instance', async () => {
    const { guild, key } = await keyOn('free');
    const { key: second } = await createTestKey(database.db, guild, { scopes: ['guild:read'] });
    const other = await startTestApp(database.db, { clock });
    try {
      await burst(30, () => app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) }));
      await burst(30, () => other.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) }));
      expect((await other.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(429);
      expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(429);
      expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(second) })).status).toBe(200);
      clock.advance(60_000);
      const next = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
      expect(next.status).toBe(200);
      expect(next.headers['x-ratelimit-remaining']).toBe('59');
    } finally {
      clock.set(new Date('2026-11-22T12:00:20Z'));
      await other.close();
    }
  });
});
