import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../../db/pool.js';
import { setPlatformReachable } from '../../../db/platform/local.js';
import { freePort } from '../../../process/infra/freePort.js';
import { createLocalPlatform } from '../../../src/platform/localPlatform.js';
import { PlatformUnavailableError, type Platform } from '../../../src/core/platform.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake } from '../../harness/fixtures.js';
import { createHttpClient } from '../../harness/httpClient.js';
import { countWrites } from '../../harness/rows.js';
import { startTestApp } from '../../harness/testApp.js';

const { database, app } = useApiTestBed();

const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function guildAndKey() {
  const guild = await createTestGuild(database.db);
  const { key } = await createTestKey(database.db, guild);
  return { guild, key };
}

/** An app whose chat platform fails the way `fail` says; the member cache asks that platform too. */
async function appWithPlatform(fail: (method: string) => Error, logLines?: string[]) {
  const local = createLocalPlatform(database.db);
  const failing = (method: keyof Platform) => async () => Promise.reject(fail(method));
  const platform: Platform = { ...local, getMember: failing('getMember'), listRoles: failing('listRoles'), listChannels: failing('listChannels') };
  const logger = pino({ level: 'error' }, { write: (line: string) => void logLines?.push(line) });
  return startTestApp(database.db, { deps: { platform, memberCache: { getMember: platform.getMember }, logger } });
}

describe('404 NOT_FOUND for unknown routes', () => {
  it.each([
    ['GET', '/api/v1/nothing-here'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/guilds'],
    ['GET', '/api/v1/guilds/100000000000000001/unknown'],
    ['GET', '/api/v1/guilds/100000000000000001/members'],
    ['POST', '/api/v1/guilds/100000000000000001/unknown'],
    ['GET', '/'],
    ['GET', '/api/v2/guilds/100000000000000001'],
    ['GET', '/guilds/100000000000000001'],
    ['PURGE', '/api/v1/nothing-here'],
  ])('%s %s, with or without a key', async (method, path) => {
    const { key } = await guildAndKey();
    const raw = createHttpClient(app.baseUrl);
    for (const headers of [bearer(key), {}]) {
      const res = await raw(method, path, { headers });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
      expect(res.headers['x-request-id']).toMatch(REQUEST_ID);
      expect(res.headers.allow).toBeUndefined();
    }
  });
});

describe('405 METHOD_NOT_ALLOWED for a known path with another method', () => {
  it.each([
    ['DELETE', '/guilds/{guild}', ['GET', 'HEAD']],
    ['PUT', '/guilds/{guild}', ['GET', 'HEAD']],
    ['POST', '/guilds/{guild}/roles', ['GET', 'HEAD']],
    ['PATCH', '/guilds/{guild}/members/{member}', ['GET', 'HEAD']],
    ['DELETE', '/guilds/{guild}/bank/members/{member}/transactions', ['GET', 'HEAD', 'POST']],
    ['PURGE', '/guilds/{guild}', ['GET', 'HEAD']],
    ['POST', '/openapi.json', ['GET', 'HEAD']],
  ])('%s %s, without looking at the key', async (method, path, allowed) => {
    const { guild } = await guildAndKey();
    const res = await app.http(method, path.replace('{guild}', guild.id).replace('{member}', snowflake()));
    expect(res.status).toBe(405);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: 'METHOD_NOT_ALLOWED', message: expect.any(String) });
    expect(res.headers.allow!.split(', ').sort()).toEqual(allowed);
  });
});

describe('400 INVALID_REQUEST for invalid path ids', () => {
  it.each([
    ['letters', 'abc'],
    ['16 digits', '1'.repeat(16)],
    ['21 digits', '1'.repeat(21)],
    ['a signed number', '-10000000000000000'],
    ['an exponent', '1e17'],
    ['spaces', '%20100000000000000001'],
  ])('userId with %s, with issues [{location: path, path: userId}]', async (_label, userId) => {
    const { guild, key } = await guildAndKey();
    const res = await app.http('GET', `/guilds/${guild.id}/members/${userId}`, { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'INVALID_REQUEST',
      message: expect.any(String),
      issues: [{ location: 'path', path: 'userId', message: expect.any(String) }],
    });
    expect(res.headers['x-ratelimit-limit']).toBe('600');
  });

  it('a malformed guild id names no server: 400 at path guildId; a well-formed one of another server is 403 GUILD_MISMATCH', async () => {
    const { key } = await guildAndKey();
    for (const path of ['/guilds/123/members/abc', '/guilds/abc']) {
      const res = await app.http('GET', path, { headers: bearer(key) });
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({
        error: 'INVALID_REQUEST',
        message: expect.any(String),
        issues: [{ location: 'path', path: 'guildId', message: expect.any(String) }],
      });
    }
    const res = await app.http('GET', `/guilds/0${snowflake()}`, { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'GUILD_MISMATCH', message: expect.any(String) });
  });

  it('query parameters are validated the same way', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['bank:read'] });
    const res = await app.http('GET', `/guilds/${guild.id}/bank/leaderboard?limit=0`, { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'INVALID_REQUEST',
      message: expect.any(String),
      issues: [{ location: 'query', path: 'limit', message: expect.any(String) }],
    });
  });
});

describe('500 INTERNAL_ERROR', () => {
  it.each(['/roles', '/channels', '/members/{member}'])('on /guilds/{id}%s shows no internals and carries the request id', async (suffix) => {
    const { guild, key } = await guildAndKey();
    const member = await addTestMember(database.db, guild);
    const logLines: string[] = [];
    const broken = await appWithPlatform(() => new Error('relation "secret_table" does not exist at /srv/app/db.ts:42'), logLines);
    try {
      const res = await broken.http('GET', `/guilds/${guild.id}${suffix.replace('{member}', member)}`, { headers: bearer(key) });
      const requestId = res.headers['x-request-id'] as string;
      expect(res.status).toBe(500);
      expect(requestId).toMatch(REQUEST_ID);
      expect(res.body).toEqual({ error: 'INTERNAL_ERROR', message: expect.stringContaining(requestId), requestId });
      expect(res.text).not.toMatch(/secret_table|db\.ts|\bat\b.*:\d+/);
      expect(res.headers['retry-after']).toBeUndefined();
      // The log keeps what the answer hides, under the same request id.
      const logged = logLines.map((line) => JSON.parse(line) as { requestId?: string; err?: { message?: string } });
      expect(logged).toContainEqual(expect.objectContaining({ requestId, err: expect.objectContaining({ message: expect.stringContaining('secret_table') }) }));
    } finally {
      await broken.close();
    }
  });

  it('gives each request its own id', async () => {
    const { guild, key } = await guildAndKey();
    const broken = await appWithPlatform(() => new Error('boom'));
    try {
      const [a, b] = await Promise.all([1, 2].map(() => broken.http('GET', `/guilds/${guild.id}/roles`, { headers: bearer(key) })));
      expect(a!.body.requestId).not.toBe(b!.body.requestId);
    } finally {
      await broken.close();
    }
  });
});

describe('503 SERVICE_UNAVAILABLE with Retry-After', () => {
  it('while PostgreSQL is unreachable, for every request that needs a key lookup', async () => {
    const { guild, key } = await guildAndKey();
    const unreachable = createDatabase(`postgres://postgres:postgres@127.0.0.1:${await freePort()}/x`, 2);
    const offline = await startTestApp(unreachable.db);
    try {
      for (const authorization of [`Bearer ${key}`, `Bearer svc_${'A'.repeat(43)}`]) {
        const res = await offline.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: authorization } });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
        expect(res.headers['retry-after']).toBe('5');
        expect(res.headers['x-request-id']).toMatch(REQUEST_ID);
      }
      // What needs no lookup is still answered: a request that can never succeed gets its 401, the
      // document and unknown routes need no database.
      const noKey = await offline.http('GET', `/guilds/${guild.id}`);
      expect(noKey.status).toBe(401);
      expect(noKey.body.error).toBe('UNAUTHORIZED');
      expect((await offline.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: 'Bearer nope' } })).body.error).toBe('INVALID_API_KEY');
      expect((await offline.http('GET', '/openapi.json')).status).toBe(200);
      expect((await offline.http('GET', '/nothing')).status).toBe(404);
    } finally {
      await offline.close();
      await unreachable.close();
    }
  });

  it.each(['/members/{member}', '/roles', '/channels'])(
    'when the chat platform throws PlatformUnavailableError on /guilds/{id}%s',
    async (suffix) => {
      const { guild, key } = await guildAndKey();
      const member = await addTestMember(database.db, guild);
      const offline = await appWithPlatform(() => new PlatformUnavailableError());
      try {
        const res = await offline.http('GET', `/guilds/${guild.id}${suffix.replace('{member}', member)}`, { headers: bearer(key) });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
        expect(res.headers['retry-after']).toBe('5');
        expect(res.headers['x-ratelimit-limit']).toBe('600');
      } finally {
        await offline.close();
      }
    },
  );

  it('when the local platform is marked unreachable, and a write changes nothing', async () => {
    const { guild, key } = await guildAndKey();
    const member = await addTestMember(database.db, guild);
    await setPlatformReachable(database.db, guild.id, false);
    const before = await countWrites(database.db, guild.id);
    const read = await app.http('GET', `/guilds/${guild.id}/members/${member}`, { headers: bearer(key) });
    expect(read.status).toBe(503);
    expect(read.headers['retry-after']).toBe('5');
    const write = await app.http('POST', `/guilds/${guild.id}/bank/members/${member}/transactions`, {
      headers: bearer(key),
      body: { type: 'add', amount: 10 },
    });
    expect(write.status).toBe(503);
    expect(write.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });
});
