import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestState } from '../../../api/context.js';
import { errorBoundary } from '../../../api/middleware/errorBoundary.js';
import { routeFallback } from '../../../api/middleware/fallback.js';
import { RouteTable } from '../../../api/routeTable.js';
import { createLogger } from '../../../src/core/logger.js';
import { httpRequests } from '../../../src/core/metrics.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { createHttpClient, type HttpClient } from '../../harness/httpClient.js';

// The table's matching rules on routes of its own (each answers which route ran and with which params), then the
// product's HEAD, OPTIONS, trailing slash and Origin refusals through the real app. 404 and 405: errors.test.ts.

describe('RouteTable', () => {
  let server: Server;
  let http: HttpClient;
  beforeAll(async () => {
    const table = new RouteTable('/api/v1');
    const answer = (name: string) => [(ctx: Koa.ParameterizedContext<RequestState>) => void (ctx.body = { name, params: ctx.params })];
    table.add('get', '/things/:thingId', answer('thing'));
    table.add('get', '/things/:thingId/parts/:partId', answer('part by id'));
    table.add('get', '/things/:thingId/parts/latest', answer('latest part'));
    table.add('get', '/things/mine/parts/:partId', answer('my part'));
    table.add('post', '/things/:thingId/parts/:partId', answer('part posted'));
    table.add('patch', '/things/:thingId', answer('thing patched'));
    const app = new Koa<RequestState>();
    app.use(errorBoundary(createLogger('silent', 'route-table-test')));
    app.use(table.middleware());
    app.use(routeFallback());
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    http = createHttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['/api/v1/things/7', 'thing', { thingId: '7' }],
    ['/api/v1/things/7/', 'thing', { thingId: '7' }],
    ['/API/V1/Things/7', 'thing', { thingId: '7' }],
    ['/api/v1/things/a%2Fb%20c', 'thing', { thingId: 'a/b c' }],
    ['/api/v1/things/%E0%A4%A', 'thing', { thingId: '%E0%A4%A' }],
    ['/api/v1/things/7/parts/9', 'part by id', { thingId: '7', partId: '9' }],
    // Both a literal and a parameter match: the route added first answers, with its own params.
    ['/api/v1/things/7/parts/latest', 'part by id', { thingId: '7', partId: 'latest' }],
    ['/api/v1/things/mine/parts/9', 'part by id', { thingId: 'mine', partId: '9' }],
  ])('GET %s runs %s', async (path, name, params) => {
    const res = await http('GET', path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name, params });
  });

  it.each([
    '/api/v1/things',
    '/api/v1/things/',
    '/api/v1/things//',
    '/api/v1/things/7//',
    '/api/v1/things/7/parts',
    '/api/v1/things/7/parts/9/more',
    '/api/v2/things/7',
    '/api/v1/thing\u212a/7',
    '/things/7',
  ])('GET %s: 404 NOT_FOUND from the fallback', async (path) => {
    const res = await http('GET', path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
  });

  it('answers HEAD with the GET route and another method with 405 and the methods of every matching route', async () => {
    const head = await http('HEAD', '/api/v1/things/7');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const method of ['DELETE', 'PUT', 'PURGE']) {
      const res = await http(method, '/api/v1/things/7/parts/latest');
      expect(res.status, method).toBe(405);
      expect(res.body).toEqual({ error: 'METHOD_NOT_ALLOWED', message: expect.any(String) });
      expect(res.headers.allow).toBe('HEAD, GET, POST');
    }
    expect((await http('POST', '/api/v1/things/7')).headers.allow).toBe('HEAD, GET, PATCH');
  });

  it('answers OPTIONS on a known path 200 with Allow and no body, on an unknown one 404', async () => {
    const res = await http('OPTIONS', '/api/v1/things/7');
    expect(res.status).toBe(200);
    expect(res.headers.allow).toBe('HEAD, GET, PATCH');
    expect(res.text).toBe('');
    expect((await http('OPTIONS', '/api/v1/nothing')).status).toBe(404);
  });
});

describe('the product routes through the table', () => {
  const { database, app } = useApiTestBed();

  it('answers HEAD like GET without a body, rate-limit headers included, and a trailing slash like none', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild);
    const get = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    for (const [method, path] of [['HEAD', `/guilds/${guild.id}`], ['GET', `/guilds/${guild.id}/`]] as const) {
      const res = await app.http(method, path, { headers: bearer(key) });
      expect(res.status, `${method} ${path}`).toBe(200);
      expect(res.text).toBe(method === 'HEAD' ? '' : get.text);
      expect(res.headers['x-ratelimit-limit']).toBe('600');
      expect(res.headers['x-request-id']).toBeDefined();
    }
  });

  it('answers OPTIONS with the methods of the path', async () => {
    const guild = await createTestGuild(database.db);
    const res = await app.http('OPTIONS', `/guilds/${guild.id}/bank/members/100000000000000008/transactions`);
    expect(res.status).toBe(200);
    expect(res.headers.allow).toBe('HEAD, GET, POST');
  });

  it('refuses a browser on every API route, in any spelling of the path, counted under the route template', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild);
    const route = '/api/v1/guilds/:guildId/roles';
    const refused = async () => (await httpRequests.get()).values.find((v) => v.labels.route === route && v.labels.status === '403')?.value ?? 0;
    const before = await refused();
    const http = createHttpClient(app.baseUrl);
    for (const path of [`/api/v1/guilds/${guild.id}/roles`, `/API/V1/GUILDS/${guild.id}/Roles`]) {
      const res = await http('GET', path, { headers: { ...bearer(key), Origin: 'https://example.com' } });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ error: 'BROWSER_REQUESTS_NOT_ALLOWED', message: expect.any(String) });
    }
    expect((await refused()) - before).toBe(2);
  });
});
