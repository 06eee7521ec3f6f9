import { describe, expect, it } from 'vitest';
import { setPlatformReachable } from '../../db/platformLocal.js';
import { createDatabase } from '../../db/pool.js';
import { freePort } from '../../src/infra/freePort.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { useTestDatabase } from '../harness/database.js';
import { bearer, createTestGuild, createTestKey, snowflake } from '../harness/fixtures.js';
import { startTestApp, useTestApp } from '../harness/testApp.js';

const database = useTestDatabase();
const app = useTestApp(() => database.db);

async function guildAndKey() {
  const guild = await createTestGuild(database.db);
  const { key } = await createTestKey(database.db, guild);
  return { guild, key };
}

describe('error shape', () => {
  it('answers unknown routes 404 NOT_FOUND in the same shape, with a request id', async () => {
    const { key } = await guildAndKey();
    for (const path of ['/nothing-here', '/guilds/100000000000000001/unknown']) {
      const res = await app.http('GET', path, { headers: bearer(key) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers a wrong method 405 METHOD_NOT_ALLOWED with Allow', async () => {
    const { guild, key } = await guildAndKey();
    const res = await app.http('DELETE', `/guilds/${guild.id}/bank/leaderboard`, { headers: bearer(key) });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'METHOD_NOT_ALLOWED', message: expect.any(String) });
    expect(res.headers.allow).toContain('GET');
  });

  it('answers an invalid path id 400 INVALID_REQUEST with issues', async () => {
    const { guild, key } = await guildAndKey();
    const res = await app.http('GET', `/guilds/${guild.id}/members/abc`, { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'INVALID_REQUEST',
      message: expect.any(String),
      issues: [{ location: 'path', path: 'userId', message: expect.any(String) }],
    });
  });

  it('answers 500 without internals, carrying the request id', async () => {
    const { guild, key } = await guildAndKey();
    const platform = { ...createLocalPlatform(database.db), getMember: async () => Promise.reject(new Error('SELECT secret FROM internals')) };
    const broken = await startTestApp(database.db, { deps: { platform, memberCache: { getMember: platform.getMember } } });
    try {
      const res = await broken.http('GET', `/guilds/${guild.id}/members/${snowflake()}`, { headers: bearer(key) });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'INTERNAL_ERROR', message: expect.stringContaining(res.headers['x-request-id'] as string), requestId: res.headers['x-request-id'] });
      expect(res.text).not.toContain('secret');
    } finally {
      await broken.close();
    }
  });
});

describe('503 SERVICE_UNAVAILABLE', () => {
  it('while PostgreSQL is unreachable, with Retry-After', async () => {
    const { guild, key } = await guildAndKey();
    const unreachable = createDatabase(`postgres://postgres:postgres@127.0.0.1:${await freePort()}/none`, 2);
    const offline = await startTestApp(unreachable.db);
    try {
      const res = await offline.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await offline.close();
      await unreachable.close();
    }
  });

  it('while the chat platform is unreachable for a member lookup', async () => {
    const { guild, key } = await guildAndKey();
    await setPlatformReachable(database.db, guild.id, false);
    const res = await app.http('GET', `/guilds/${guild.id}/members/${snowflake()}`, { headers: bearer(key) });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('bad input never answers 500 and never changes state', () => {
  it.each([
    ['GET', '/guilds/%zz', {}],
    ['GET', '/guilds/1;DROP TABLE guilds', {}],
    ['GET', `/guilds/${'9'.repeat(400)}`, {}],
    ['GET', '/guilds/100000000000000001/members/1e5', {}],
    ['GET', '/guilds/100000000000000001/bank/leaderboard?limit=1&limit=2', {}],
    ['POST', '/guilds/100000000000000001/bank/members/100000000000000002/transactions', { body: '\u0000\u0001' }],
    ['POST', '/guilds/100000000000000001/bank/members/100000000000000002/transactions', { body: 'null' }],
    ['POST', '/guilds/100000000000000001/bank/members/100000000000000002/transactions', { body: '{"type":"add","amount":1e400}' }],
    ['POST', '/guilds/100000000000000001/bank/members/100000000000000002/transactions', { body: '{"__proto__":{"x":1},"type":"add","amount":1}' }],
  ])('%s %s', async (method, path, options) => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild);
    const before = await database.db.selectFrom('bank_ledger').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const res = await app.http(method, path.replace('100000000000000001', guild.id), { headers: bearer(key), ...options });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String), message: expect.any(String) }));
    const after = await database.db.selectFrom('bank_ledger').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});
