import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/clock.js';
import { SCOPES } from '../../src/domain/scopes.js';
import { revokeApiKey } from '../../src/keys/keyManagement.js';
import { useTestDatabase } from '../harness/database.js';
import { bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { startTestApp, useTestApp } from '../harness/testApp.js';

const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-22T12:00:05Z'));
const app = useTestApp(() => database.db, { clock, env: { AUTH_FAILURE_LIMIT: '1000' } });

const CHALLENGE = 'Bearer realm="Service API"';

async function guildAndKey(scopes = [...SCOPES]) {
  const guild = await createTestGuild(database.db);
  const created = await createTestKey(database.db, guild, { scopes, clock });
  return { guild, key: created.key, keyId: created.id };
}

describe('401 responses', () => {
  it.each([
    ['no Authorization header', undefined, 'UNAUTHORIZED'],
    ['a Basic header', 'Basic dXNlcjpwYXNz', 'UNAUTHORIZED'],
    ['Bearer without a token', 'Bearer ', 'UNAUTHORIZED'],
    ['two tokens', 'Bearer svc_a svc_b', 'UNAUTHORIZED'],
    ['a token of the wrong shape', 'Bearer not-a-key', 'INVALID_API_KEY'],
    ['a well-formed unknown key', `Bearer svc_${'A'.repeat(43)}`, 'INVALID_API_KEY'],
  ])('%s answers 401 %s with the Bearer challenge', async (_label, header, code) => {
    const { guild } = await guildAndKey();
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: header === undefined ? {} : { Authorization: header } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: code, message: expect.any(String) });
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('accepts the scheme name in any case', async () => {
    const { guild, key } = await guildAndKey();
    expect((await app.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: `bearer ${key}` } })).status).toBe(200);
  });

  it('refuses a revoked key at once: API_KEY_REVOKED', async () => {
    const { guild, key, keyId } = await guildAndKey();
    expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(200);
    await revokeApiKey(database.db, clock, { guildId: guild.id, id: keyId, actor: { type: 'system' } });
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('API_KEY_REVOKED');
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it('refuses an expired key: API_KEY_EXPIRED', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { expiresInDays: 30, clock });
    expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(200);
    clock.advance(30 * 86_400_000);
    try {
      const res = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('API_KEY_EXPIRED');
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    } finally {
      clock.set(new Date('2026-11-22T12:00:05Z'));
    }
  });
});

describe('403 responses', () => {
  it('GUILD_MISMATCH for a key of another server', async () => {
    const { key } = await guildAndKey();
    const other = await createTestGuild(database.db);
    const res = await app.http('GET', `/guilds/${other.id}/roles`, { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'GUILD_MISMATCH', message: expect.any(String) });
  });

  it('GUILD_BLOCKED for a blocked server', async () => {
    const guild = await createTestGuild(database.db, { blocked: true });
    const { key } = await createTestKey(database.db, guild, { clock });
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('GUILD_BLOCKED');
  });

  it.each(['https://example.invalid', 'null', ''])('BROWSER_REQUESTS_NOT_ALLOWED for Origin %j, even with a valid key', async (origin) => {
    const { guild, key } = await guildAndKey();
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: { ...bearer(key), Origin: origin || ' ' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('BROWSER_REQUESTS_NOT_ALLOWED');
  });

  it('INSUFFICIENT_SCOPE names the missing scope; scopes are independent', async () => {
    const { guild, key } = await guildAndKey(SCOPES.filter((s) => s !== 'guild:read'));
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'guild:read' });
    const writeOnly = await guildAndKey(['bank:write']);
    const read = await app.http('GET', `/guilds/${writeOnly.guild.id}/bank/leaderboard`, { headers: bearer(writeOnly.key) });
    expect(read.body).toMatchObject({ error: 'INSUFFICIENT_SCOPE', required: 'bank:read' });
  });
});

describe('throttling repeated authentication failures from one address', () => {
  it('answers 429 after the limit, even for a valid key, until the window ends', async () => {
    const throttledApp = await startTestApp(database.db, { clock, env: { AUTH_FAILURE_LIMIT: '3' } });
    // A minute of its own: the other tests' failures from this address count in theirs.
    clock.set(new Date('2026-11-22T12:05:05Z'));
    try {
      const { guild, key } = await guildAndKey();
      for (let i = 0; i < 3; i++) {
        expect((await throttledApp.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
      }
      const blocked = await throttledApp.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: 'Bearer wrong' } });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toBe('RATE_LIMITED');
      expect(Number(blocked.headers['retry-after'])).toBe(55);
      const valid = await throttledApp.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
      expect(valid.status).toBe(429);
      clock.advance(60_000);
      expect((await throttledApp.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) })).status).toBe(200);
    } finally {
      clock.set(new Date('2026-11-22T12:00:05Z'));
      await throttledApp.close();
    }
  });
});
