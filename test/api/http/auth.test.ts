import { describe, expect, it } from 'vitest';
import { readHits } from '../../../db/shared/rateLimits.js';
import { fixedClock } from '../../../src/core/clock.js';
import { currentWindow } from '../../../src/core/fixedWindow.js';
import { SCOPES, type Scope } from '../../../src/core/scopes.js';
import { revokeApiKey } from '../../../src/keys/keyManagement.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';
import { useTestApp } from '../../harness/testApp.js';

const START = new Date('2026-11-22T12:00:05Z');
// Failures of this file's other tests must not throttle it: the throttle has an app and a clock of its own.
const { database, db, clock, app } = useApiTestBed({ now: START, env: { AUTH_FAILURE_LIMIT: '1000' } });
const THROTTLE_START = new Date('2026-11-22T13:00:05Z');
const throttleClock = fixedClock(THROTTLE_START);
const throttledApp = useTestApp(db, { clock: throttleClock, env: { AUTH_FAILURE_LIMIT: '3' } });

const CHALLENGE = 'Bearer realm="Service API"';
const WELL_FORMED_UNKNOWN = `svc_${'A'.repeat(43)}`;

async function guildAndKey(scopes: Scope[] = [...SCOPES]) {
  const guild = await createTestGuild(database.db);
  const created = await createTestKey(database.db, guild, { scopes, clock });
  return { guild, key: created.key, keyId: created.id };
}

/** Requests counted in the key's current rate-limit window. */
const keyHits = (keyId: number, at = clock.now()) => readHits(database.db, `key:${keyId}`, currentWindow(at).start);

function expectNoRateHeaders(headers: Record<string, unknown>) {
  expect(headers['x-ratelimit-limit']).toBeUndefined();
  expect(headers['x-ratelimit-remaining']).toBeUndefined();
  expect(headers['x-ratelimit-reset']).toBeUndefined();
}

describe('401 responses carry the Bearer challenge and change nothing', () => {
  it.each<[string, (key: string) => string | undefined, string]>([
    ['no Authorization header', () => undefined, 'UNAUTHORIZED'],
    ['a Basic header', () => 'Basic dXNlcjpwYXNz', 'UNAUTHORIZED'],
    ['Bearer without a token', () => 'Bearer', 'UNAUTHORIZED'],
    ['Bearer and spaces only', () => 'Bearer    ', 'UNAUTHORIZED'],
    ['two tokens', () => 'Bearer svc_a svc_b', 'UNAUTHORIZED'],
    ['a valid key twice', (key) => `Bearer ${key} ${key}`, 'UNAUTHORIZED'],
    ['two Bearer credentials', (key) => `Bearer ${key}, Bearer ${key}`, 'UNAUTHORIZED'],
    ['a valid key without the scheme', (key) => key, 'UNAUTHORIZED'],
    ['a valid key under another scheme', (key) => `Token ${key}`, 'UNAUTHORIZED'],
    ['a malformed key', () => 'Bearer not-a-key', 'INVALID_API_KEY'],
    ['a key one character short', (key) => `Bearer ${key.slice(0, -1)}`, 'INVALID_API_KEY'],
    ['a key one character long', (key) => `Bearer ${key}A`, 'INVALID_API_KEY'],
    ['a well-formed unknown key', () => `Bearer ${WELL_FORMED_UNKNOWN}`, 'INVALID_API_KEY'],
    ['a valid key with one character changed', (key) => `Bearer ${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, 'INVALID_API_KEY'],
  ])('%s answers 401 %s', async (_label, header, code) => {
    const { guild, key, keyId } = await guildAndKey();
    const before = await countWrites(database.db, guild.id);
    const authorization = header(key);
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: authorization === undefined ? {} : { Authorization: authorization } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: code, message: expect.any(String) });
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    expectNoRateHeaders(res.headers);
    expect(await countWrites(database.db, guild.id)).toEqual(before);
    expect(await keyHits(keyId)).toBe(0);
  });

  it('accepts the scheme name in any case', async () => {
    const { guild, key } = await guildAndKey();
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      expect((await app.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: `${scheme} ${key}` } })).status).toBe(200);
    }
  });

  it('refuses a revoked key at once with API_KEY_REVOKED, and the refusal costs the key nothing', async () => {
    const { guild, key, keyId } = await guildAndKey();
    expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(200);
    expect(await keyHits(keyId)).toBe(1);
    await revokeApiKey(database.db, clock, { guildId: guild.id, id: keyId, actor: { type: 'system' } });
    const before = await countWrites(database.db, guild.id);
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'API_KEY_REVOKED', message: expect.any(String) });
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    expectNoRateHeaders(res.headers);
    expect(await countWrites(database.db, guild.id)).toEqual(before);
    expect(await keyHits(keyId)).toBe(1);
  });

  it('refuses a key past its expiry with API_KEY_EXPIRED; it works until then', async () => {
    const guild = await createTestGuild(database.db);
    const { key, id } = await createTestKey(database.db, guild, { expiresInDays: 30, clock });
    try {
      expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(200);
      clock.advance(30 * 86_400_000 - 1_000);
      expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(200);
      clock.set(new Date(START.getTime() + 31 * 86_400_000));
      const res = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'API_KEY_EXPIRED', message: expect.any(String) });
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
      expectNoRateHeaders(res.headers);
      expect(await keyHits(id)).toBe(0);
    } finally {
      clock.set(START);
    }
  });
});

describe('403 responses', () => {
  it('GUILD_MISMATCH for a key of another server, on every guild endpoint', async () => {
    const { key } = await guildAndKey();
    const other = await createTestGuild(database.db);
    const member = await addTestMember(database.db, other);
    for (const path of ['', '/roles', '/channels', `/members/${member}`]) {
      const res = await app.http('GET', `/guilds/${other.id}${path}`, { headers: bearer(key) });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ error: 'GUILD_MISMATCH', message: expect.any(String) });
      expect(res.headers['x-ratelimit-limit']).toBe('600');
    }
  });

  it('GUILD_BLOCKED for a blocked server, even for its own key', async () => {
    const guild = await createTestGuild(database.db, { blocked: true });
    const { key } = await createTestKey(database.db, guild, { clock });
    const res = await app.http('GET', `/guilds/${guild.id}/roles`, { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'GUILD_BLOCKED', message: expect.any(String) });
  });

  it.each([
    ['a web origin', 'https://example.com'],
    ['the null origin', 'null'],
    ['an empty value', ''],
    ['the API host itself', 'http://127.0.0.1'],
  ])('BROWSER_REQUESTS_NOT_ALLOWED for Origin with %s, even with a valid key, before the key is counted', async (_label, origin) => {
    const { guild, key, keyId } = await guildAndKey();
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: { ...bearer(key), Origin: origin } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'BROWSER_REQUESTS_NOT_ALLOWED', message: expect.any(String) });
    expectNoRateHeaders(res.headers);
    expect(await keyHits(keyId)).toBe(0);
  });

  it('BROWSER_REQUESTS_NOT_ALLOWED also without a key (the Origin rule comes first)', async () => {
    const { guild } = await guildAndKey();
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: { Origin: 'https://example.com' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('BROWSER_REQUESTS_NOT_ALLOWED');
  });

  it.each(['', '/roles', '/channels', '/members/{member}'])(
    'INSUFFICIENT_SCOPE with required guild:read on /guilds/{id}%s for a key holding every other scope',
    async (suffix) => {
      const { guild, key } = await guildAndKey(SCOPES.filter((s) => s !== 'guild:read'));
      const member = await addTestMember(database.db, guild);
      const res = await app.http('GET', `/guilds/${guild.id}${suffix.replace('{member}', member)}`, { headers: bearer(key) });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'guild:read' });
      expect(res.headers['x-ratelimit-remaining']).toBe('599');
    },
  );

  it.each<[Scope, string, Scope]>([
    ['bank:write', '/bank/leaderboard', 'bank:read'],
    ['levels:write', '/levels/leaderboard', 'levels:read'],
    ['bank:read', '', 'guild:read'],
  ])('scopes are independent: %s does not grant %s', async (held, path, required) => {
    const { guild, key } = await guildAndKey([held]);
    const res = await app.http('GET', `/guilds/${guild.id}${path}`, { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required });
  });

  it('a key with only guild:read reads the server', async () => {
    const { guild, key } = await guildAndKey(['guild:read']);
    expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(200);
  });
});

describe('throttling repeated authentication failures from one address (AUTH_FAILURE_LIMIT=3)', () => {
  it('answers 429 to failures after the limit, until the window ends (a valid key is not refused: addressThrottle.test.ts)', async () => {
    const { guild, key, keyId } = await guildAndKey();
    const send = (authorization: string) => throttledApp.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: authorization } });
    try {
      // One failure of each kind: they all count.
      expect((await send('Basic x')).body.error).toBe('UNAUTHORIZED');
      expect((await send('Bearer wrong')).body.error).toBe('INVALID_API_KEY');
      expect((await send(`Bearer ${WELL_FORMED_UNKNOWN}`)).body.error).toBe('INVALID_API_KEY');

      for (const authorization of ['Bearer wrong', `Bearer ${WELL_FORMED_UNKNOWN}`, 'Basic x']) {
        const blocked = await send(authorization);
        expect(blocked.status, authorization).toBe(429);
        expect(blocked.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String) });
        expect(blocked.headers['retry-after']).toBe('55');
        expect(blocked.headers['www-authenticate']).toBeUndefined();
        expectNoRateHeaders(blocked.headers);
      }
      // The throttled failures cost the valid key nothing.
      expect(await keyHits(keyId, throttleClock.now())).toBe(0);

      throttleClock.advance(55_000);
      const next = await send(`Bearer ${key}`);
      expect(next.status).toBe(200);
      expect(next.headers['x-ratelimit-remaining']).toBe('599');
    } finally {
      throttleClock.set(THROTTLE_START);
    }
  });

  it('does not count successful requests or 403s as failures', async () => {
    throttleClock.set(new Date('2026-11-22T14:00:00Z'));
    try {
      const { guild, key } = await guildAndKey();
      const other = await createTestGuild(database.db);
      for (let i = 0; i < 5; i++) {
        expect((await throttledApp.http('GET', `/guilds/${other.id}`, { headers: bearer(key) })).status).toBe(403);
        expect((await throttledApp.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(200);
      }
      expect((await throttledApp.http('GET', `/guilds/${snowflake()}`, { headers: { Origin: 'null' } })).status).toBe(403);
    } finally {
      throttleClock.set(THROTTLE_START);
    }
  });
});
