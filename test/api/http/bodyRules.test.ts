import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../../api/app.js';
import type { AppDeps, RequestState } from '../../../api/context.js';
import { errorBoundary } from '../../../api/middleware/errorBoundary.js';
import { routeFallback } from '../../../api/middleware/fallback.js';
import { mountRoutes } from '../../../api/mountRoutes.js';
import { RouteTable } from '../../../api/routeTable.js';
import { defineRoute } from '../../../api/route.js';
import { GuildParams } from '../../../src/core/contract.js';
import { z } from '../../../src/core/zod.js';
import { loadConfig } from '../../../src/core/config.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer, createTestGuild, createTestKey, type TestGuild } from '../../harness/fixtures.js';
import { createHttpClient, type HttpClient } from '../../harness/httpClient.js';
import { countWrites } from '../../harness/rows.js';

// No write endpoint of the product is generic enough to show the body rules alone, so a test-only route
// goes through the same chain (mountRoutes) as every real one.
const LIMIT = 2048;
const { database, app: product } = useApiTestBed();

const EchoBody = z.object({ name: z.string().max(10), count: z.number().int(), tags: z.array(z.string()).optional() }).strict();
const handled: unknown[] = [];
const echoRoute = defineRoute({
  method: 'post',
  path: '/guilds/{guildId}/echo',
  operationId: 'echo',
  summary: 'Test only',
  area: 'test',
  scope: 'guild:read',
  request: { params: GuildParams, body: EchoBody },
  response: { status: 201, schema: EchoBody, description: 'The body.' },
  async handle({ body }) {
    handled.push(body);
    return body;
  },
});

/** The app's chain (api/app.ts) around the test route, with a small body limit. */
function echoApp(deps: AppDeps): Koa<RequestState> {
  const app = new Koa<RequestState>();
  const table = new RouteTable(API_PREFIX);
  mountRoutes(table, [echoRoute], deps);
  app.use(errorBoundary(deps.logger));
  app.use(table.middleware());
  app.use(routeFallback());
  return app;
}

let server: Server;
let http: HttpClient;
let port: number;
let guild: TestGuild;
let key: string;
beforeAll(async () => {
  const deps = { ...product.deps, config: loadConfig({ NODE_ENV: 'test', BODY_LIMIT_BYTES: String(LIMIT) }) };
  server = createServer(echoApp(deps).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  http = createHttpClient(`http://127.0.0.1:${port}${API_PREFIX}`);
  guild = await createTestGuild(database.db);
  ({ key } = await createTestKey(database.db, guild, { scopes: ['guild:read'] }));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => void (handled.length = 0));

const path = () => `/guilds/${guild.id}/echo`;
const post = (body: unknown, headers: Record<string, string> = {}) => http('POST', path(), { headers: { ...bearer(key), ...headers }, body });

/** A chunked request (no Content-Length), so the limit is enforced on the bytes actually read. */
function postChunked(chunks: string[]): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: `${API_PREFIX}${path()}`, headers: { ...bearer(key), 'Content-Type': 'application/json' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString('utf8')) }));
      },
    );
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

async function expectUnchanged<T>(run: () => Promise<T>): Promise<T> {
  const before = await countWrites(database.db, guild.id);
  const result = await run();
  expect(handled).toEqual([]);
  expect(await countWrites(database.db, guild.id)).toEqual(before);
  return result;
}

describe('body rules of write endpoints', () => {
  it('accepts a JSON body that fits its schema', async () => {
    const res = await post({ name: 'ok', count: 1 }, { 'Content-Type': 'application/json; charset=UTF-8' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'ok', count: 1 });
  });

  it.each([
    ['text/plain', { 'Content-Type': 'text/plain' }],
    ['application/x-www-form-urlencoded', { 'Content-Type': 'application/x-www-form-urlencoded' }],
    ['application/jsonp', { 'Content-Type': 'application/jsonp' }],
    ['a JSON type in another charset', { 'Content-Type': 'application/json; charset=utf-16' }],
    ['a compressed body', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }],
  ])('415 UNSUPPORTED_MEDIA_TYPE for %s', async (_label, headers) => {
    const res = await expectUnchanged(() => post('{"name":"ok","count":1}', headers));
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) });
    expect(res.headers['x-ratelimit-limit']).toBe('600');
  });

  it('413 PAYLOAD_TOO_LARGE with the limit, by Content-Length, before reading', async () => {
    const res = await expectUnchanged(() => post(JSON.stringify({ name: 'x', count: 1, tags: ['a'.repeat(LIMIT)] })));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining(String(LIMIT)), limit: LIMIT });
  });

  it('413 PAYLOAD_TOO_LARGE for a chunked body that grows past the limit', async () => {
    const res = await expectUnchanged(() => postChunked(['{"name":"x","count":1,"tags":["', 'a'.repeat(LIMIT), '"]}']));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: expect.any(String), limit: LIMIT });
  });

  it('accepts a body of exactly the limit', async () => {
    const base = JSON.stringify({ name: 'x', count: 1, tags: [''] });
    const res = await post(JSON.stringify({ name: 'x', count: 1, tags: ['a'.repeat(LIMIT - base.length)] }));
    expect(res.status).toBe(201);
  });

  it.each(['{', '{"name":"x",}', "{'name':'x'}", 'undefined', '\u0000', '{"name":"x"}{"count":1}'])('400 INVALID_JSON for %j', async (text) => {
    const res = await expectUnchanged(() => post(text));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_JSON', message: expect.any(String) });
  });

  it.each<[string, string, Array<{ location: string; path: string }>]>([
    ['a missing field', '{"name":"x"}', [{ location: 'body', path: 'count' }]],
    ['a wrong type', '{"name":"x","count":"1"}', [{ location: 'body', path: 'count' }]],
    ['a too long string', '{"name":"xxxxxxxxxxx","count":1}', [{ location: 'body', path: 'name' }]],
    ['an unknown field', '{"name":"x","count":1,"extra":true}', [{ location: 'body', path: '' }]],
    ['not an object', '[]', [{ location: 'body', path: '' }]],
    ['null', 'null', [{ location: 'body', path: '' }]],
    ['a nested bad item', '{"name":"x","count":1,"tags":["a",2]}', [{ location: 'body', path: 'tags.1' }]],
    ['a NUL character', '{"name":"a\\u0000b","count":1}', [{ location: 'body', path: 'name' }]],
    ['an unpaired surrogate', '{"name":"x","count":1,"tags":["\\ud800"]}', [{ location: 'body', path: 'tags.0' }]],
  ])('400 INVALID_REQUEST with issues for %s', async (_label, text, issues) => {
    const res = await expectUnchanged(() => post(text));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'INVALID_REQUEST',
      message: expect.any(String),
      issues: issues.map((i) => ({ ...i, message: expect.any(String) })),
    });
  });

  it('400 INVALID_REQUEST for a write without a body', async () => {
    const res = await expectUnchanged(() => http('POST', path(), { headers: bearer(key) }));
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ location: 'body', path: '', message: expect.any(String) }]);
  });

  it('survives a deeply nested body', async () => {
    const res = await expectUnchanged(() => post('['.repeat(1000) + ']'.repeat(1000)));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
  });

  it('checks in order: key, guild, scope, then media type, size, JSON, schema', async () => {
    const other = await createTestGuild(database.db);
    expect((await http('POST', path(), { headers: { 'Content-Type': 'text/plain' }, body: 'x' })).status).toBe(401);
    expect((await http('POST', `/guilds/${other.id}/echo`, { headers: { ...bearer(key), 'Content-Type': 'text/plain' }, body: 'x' })).body.error).toBe(
      'GUILD_MISMATCH',
    );
    const big = 'x'.repeat(LIMIT + 1);
    expect((await post(big, { 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await post(big)).status).toBe(413);
    expect((await post('{')).status).toBe(400);
  });
});
