import { describe, expect, it } from 'vitest';
import { setPlatformReachable } from '../../../db/platform/local.js';
import { readHits } from '../../../db/shared/rateLimits.js';
import { currentWindow } from '../../../src/core/fixedWindow.js';
import type { Feature } from '../../../src/core/features.js';
import type { Scope } from '../../../src/core/scopes.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';
import { startTestApp, type TestApp } from '../../harness/testApp.js';

// 12:00:20 → the fixed window ends in 40 s.
const START = new Date('2026-11-22T12:00:20Z');
const { database, clock, app } = useApiTestBed({ now: START });

async function keyOn(plan: 'free' | 'pro', options: { scopes?: Scope[]; features?: Feature[] } = {}) {
  const guild = await createTestGuild(database.db, { plan, features: options.features });
  const { key, id } = await createTestKey(database.db, guild, { scopes: options.scopes ?? ['guild:read'] });
  return { guild, key, keyId: id };
}

/** Sends `count` requests, at most 20 at a time. */
async function burst(count: number, send: () => ReturnType<TestApp['http']>) {
  const statuses: number[] = [];
  for (let done = 0; done < count; done += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - done) }, send));
    statuses.push(...batch.map((r) => r.status));
  }
  return statuses;
}

const rateHeaders = (headers: Record<string, unknown>) => ({
  limit: headers['x-ratelimit-limit'],
  remaining: headers['x-ratelimit-remaining'],
  reset: headers['x-ratelimit-reset'],
});

describe('X-RateLimit-* headers', () => {
  it.each<[string, number, string, (guildId: string) => string, { scopes?: Scope[]; features?: Feature[]; unreachable?: boolean }]>([
    ['a success', 200, '', (g) => `/guilds/${g}`, {}],
    ['INSUFFICIENT_SCOPE', 403, 'INSUFFICIENT_SCOPE', (g) => `/guilds/${g}/bank/leaderboard`, {}],
    ['GUILD_MISMATCH', 403, 'GUILD_MISMATCH', () => `/guilds/${snowflake()}`, {}],
    ['INVALID_REQUEST', 400, 'INVALID_REQUEST', (g) => `/guilds/${g}/members/abc`, {}],
    ['MEMBER_NOT_FOUND', 404, 'MEMBER_NOT_FOUND', (g) => `/guilds/${g}/members/${snowflake()}`, {}],
    ['BANK_DISABLED', 409, 'BANK_DISABLED', (g) => `/guilds/${g}/bank/leaderboard`, { scopes: ['bank:read'], features: [] }],
    ['SERVICE_UNAVAILABLE from the platform', 503, 'SERVICE_UNAVAILABLE', (g) => `/guilds/${g}/members/${snowflake()}`, { unreachable: true }],
  ])('are on %s (%i)', async (_label, status, code, path, options) => {
    const { guild, key } = await keyOn('free', options);
    if (options.unreachable) await setPlatformReachable(database.db, guild.id, false);
    const res = await app.http('GET', path(guild.id), { headers: bearer(key) });
    expect(res.status).toBe(status);
    if (code) expect(res.body.error).toBe(code);
    expect(rateHeaders(res.headers)).toEqual({ limit: '60', remaining: '59', reset: '40' });
  });

  it('count down with each request and Reset follows the clock inside the window', async () => {
    const { guild, key } = await keyOn('pro');
    try {
      for (const [at, remaining, reset] of [
        ['2026-11-22T12:00:20Z', '599', '40'],
        ['2026-11-22T12:00:45.200Z', '598', '15'],
        ['2026-11-22T12:00:59.999Z', '597', '1'],
        ['2026-11-22T12:01:00Z', '599', '60'],
      ] as const) {
        clock.set(new Date(at));
        const res = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
        expect(rateHeaders(res.headers), at).toEqual({ limit: '600', remaining, reset });
      }
    } finally {
      clock.set(START);
    }
  });
});

describe('per-key rate limit', () => {
  it.each([
    ['free', 60],
    ['pro', 600],
  ] as const)('on %s answers 429 RATE_LIMITED after %i requests a minute, with Retry-After = X-RateLimit-Reset', async (plan, limit) => {
    const { guild, key } = await keyOn(plan);
    const statuses = await burst(limit, () => app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) }));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const over = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String) });
      expect(over.headers['retry-after']).toBe('40');
      expect(rateHeaders(over.headers)).toEqual({ limit: String(limit), remaining: '0', reset: '40' });
    }
  });

  it('a limited write changes nothing', async () => {
    const { guild, key } = await keyOn('free', { scopes: ['bank:write'] });
    const userId = await addTestMember(database.db, guild);
    const path = `/guilds/${guild.id}/bank/members/${userId}/transactions`;
    await burst(60, () => app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) }));
    const before = await countWrites(database.db, guild.id);
    const res = await app.http('POST', path, { headers: bearer(key), body: { type: 'add', amount: 5 } });
    expect(res.status).toBe(429);
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('starts again when the clock reaches the next window', async () => {
    const { guild, key } = await keyOn('free');
    try {
      await burst(60, () => app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) }));
      clock.set(new Date('2026-11-22T12:00:59.500Z'));
      const late = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
      expect(late.status).toBe(429);
      expect(late.headers['retry-after']).toBe('1');
      clock.set(new Date('2026-11-22T12:01:00Z'));
      const next = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
      expect(next.status).toBe(200);
      expect(rateHeaders(next.headers)).toEqual({ limit: '60', remaining: '59', reset: '60' });
    } finally {
      clock.set(START);
    }
  });

  it('counts per key: another key of the same server is unaffected', async () => {
    const { guild, key } = await keyOn('free');
    const { key: second } = await createTestKey(database.db, guild, { scopes: ['guild:read'] });
    await burst(61, () => app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) }));
    expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(429);
    const other = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(second) });
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('is shared by every api instance on the same database: each learns the others\' counts with its next write', async () => {
    const { guild, key, keyId } = await keyOn('free');
    // Writes only when the test says so (within the test's second), so the interleaving is the test's.
    const env = { RATE_LIMIT_FLUSH_MS: '1000' };
    const [a, b] = await Promise.all([startTestApp(database.db, { clock, env }), startTestApp(database.db, { clock, env })]);
    const send = (instance: TestApp) => instance.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    try {
      let sent = 0;
      // Alternating: 30 requests through each instance; none is refused, as the key is within its limit.
      expect((await burst(60, () => send(sent++ % 2 === 0 ? a : b))).filter((s) => s !== 200)).toEqual([]);
      await a.deps.keyHits.flush();
      await b.deps.keyHits.flush();
      expect(await readHits(database.db, `key:${keyId}`, currentWindow(clock.now()).start)).toBe(60);
      // b wrote last and saw every hit: over the limit.
      expect((await send(b)).status).toBe(429);
      // a wrote before b's hits arrived: it admits one more (the documented overshoot), and its write catches up.
      expect((await send(a)).status).toBe(200);
      await a.deps.keyHits.flush();
      expect((await send(a)).status).toBe(429);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
