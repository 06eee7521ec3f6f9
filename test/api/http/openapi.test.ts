import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../../api/app.js';
import { AREAS } from '../../../process/areas.js';
import { collectRoutes } from '../../../process/registry.js';
import { koaPath } from '../../../api/mountRoutes.js';
import { SCOPES } from '../../../src/core/scopes.js';
import { AREA_TAGS } from '../../../api/openapi.js';
import type { RouteDefinition } from '../../../api/route.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { createHttpClient } from '../../harness/httpClient.js';

const { database, app } = useApiTestBed();

type Response = { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> };
type Operation = {
  operationId: string;
  description?: string;
  tags?: string[];
  security: Array<Record<string, string[]>>;
  'x-required-scope'?: string;
  parameters?: Array<{ $ref?: string; in?: string; name?: string }>;
  requestBody?: { required?: boolean };
  responses: Record<string, Response>;
};
type Header = { description: string; schema: Record<string, unknown> };
type Document = {
  openapi: string;
  info: { version: string; description: string };
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, Record<string, unknown>>;
    headers: Record<string, Header>;
    parameters: Record<string, { name: string; in: string; required: boolean; schema: { $ref: string } }>;
  };
};

/** Where the document is served, relative to its server URL (like every path in it). */
const DOCUMENT_PATH = '/openapi.json';
let doc: Document;
beforeAll(async () => {
  const res = await app.http('GET', '/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body as Document;
});

/** Every authenticated operation as [`METHOD /path`, operation]. */
const operations = () =>
  Object.entries(doc.paths)
    .filter(([path]) => path !== DOCUMENT_PATH)
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const));

/** What the Koa app really routes: the layers of every router mounted on it (HEAD aside). */
function servedRoutes(): string[] {
  return apiRoutes(app.deps, collectRoutes(AREAS, app.deps)).served();
}

/** The product's routes by operationId, as the app mounts them. */
const routesById = () => new Map<string, RouteDefinition>(collectRoutes(AREAS, app.deps).map((r) => [r.operationId, r]));

describe('OpenAPI document', () => {
  it('is served without authentication, even to a browser, and is valid OpenAPI 3.1 at version 1.0.0', async () => {
    const res = await app.http('GET', '/openapi.json', { headers: { Origin: 'https://editor.swagger.io' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('1.0.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('declares the bearer scheme; the document itself needs none', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths[DOCUMENT_PATH]!.get!.security).toEqual([]);
  });

  it('gives each operation its scope in security and x-required-scope', () => {
    expect(operations().length).toBeGreaterThan(0);
    for (const [where, op] of operations()) {
      expect(SCOPES, where).toContain(op['x-required-scope']);
      expect(op.security, where).toEqual([{ bearerAuth: [op['x-required-scope']] }]);
    }
  });

  it('lists the shared error responses, each referencing the Error schema, with their headers', () => {
    expect(doc.components.schemas.Error).toBeDefined();
    for (const [where, op] of operations()) {
      for (const status of ['400', '401', '403', '429', '500', '503']) {
        const response = op.responses[status];
        expect(response, `${where} ${status}`).toBeDefined();
        expect(JSON.stringify(response!.content?.['application/json']?.schema), `${where} ${status}`).toContain('#/components/schemas/Error');
      }
      expect(Object.keys(op.responses['401']!.headers ?? {}), where).toContain('WWW-Authenticate');
      for (const status of ['429', '503']) expect(Object.keys(op.responses[status]!.headers ?? {}), `${where} ${status}`).toContain('Retry-After');
      const successes = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      // One success status, except where the spec gives two (flow runs: 200 when waited on to the end, else 202).
      expect(successes, where).toHaveLength(where === 'POST /guilds/{guildId}/flows/{workflowId}/runs' ? 2 : 1);
      for (const success of successes) {
        expect(Object.keys(op.responses[success]!.headers ?? {}), where).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
      }
    }
  });

  it('documents every event kind in the webhooks section with its data schema', () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: { requestBody: unknown } }> }).webhooks;
    expect(Object.keys(webhooks).sort()).toEqual([
      'appeals.submitted', 'applications.submitted', 'bank.transaction', 'giveaways.ended', 'levels.levelUp', 'members.joined',
      'members.left', 'moderation.caseCreated', 'shop.purchase', 'shop.refund', 'tickets.closed', 'tickets.opened', 'webhook.test',
    ]);
    expect(JSON.stringify(webhooks['bank.transaction']!.post.requestBody)).toContain('BankTransactionEvent');
    // Deliveries are authenticated by their signature headers, not by a scheme of the API.
    for (const [type, hook] of Object.entries(doc.webhooks)) expect(hook.post.security, type).toEqual([]);
  });

  it('has paths relative to its server URL, the base URL ending in /api/v1', () => {
    expect(doc.servers.map((s) => s.url)).toEqual(['/api/v1']);
    for (const path of Object.keys(doc.paths)) expect(path, path).not.toMatch(/^\/api\//);
    expect(doc.paths[DOCUMENT_PATH]?.get).toBeDefined();
  });

  it('declares Idempotency-Key on exactly the idempotent routes, and Idempotent-Replayed on their success', () => {
    const param = doc.components.parameters.IdempotencyKey!;
    expect(param).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
    const schema = doc.components.schemas[param.schema.$ref.split('/').pop()!]!;
    expect(schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
    const pattern = new RegExp(schema.pattern as string);
    for (const ok of ['a', 'x'.repeat(100), ' ~!', 'svc-retry/1']) expect(pattern.test(ok), ok).toBe(true);
    for (const bad of ['', 'x'.repeat(101), 'é', 'a\tb', 'a\u007f']) expect(pattern.test(bad), JSON.stringify(bad)).toBe(false);

    const routes = routesById();
    expect([...routes.values()].some((r) => r.idempotent)).toBe(true);
    for (const [where, op] of operations()) {
      const idempotent = routes.get(op.operationId)!.idempotent ?? false;
      const refs = (op.parameters ?? []).map((p) => p.$ref);
      expect(refs.includes('#/components/parameters/IdempotencyKey'), where).toBe(idempotent);
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))![1];
      expect(Object.keys(success.headers ?? {}).includes('Idempotent-Replayed'), where).toBe(idempotent);
    }
  });

  it('says what the rate-limit headers hold: the window, the configured limits and the units', () => {
    const { free, pro } = app.deps.config.limits.requestsPerMinute;
    const headers = doc.components.headers;
    expect(headers['X-RateLimit-Limit']!.description).toContain(`${free} on Free, ${pro} on Pro`);
    expect(headers['X-RateLimit-Limit']!.description).toMatch(/fixed one-minute windows/);
    expect(headers['X-RateLimit-Reset']!.description).toMatch(/seconds until the current window ends/i);
    expect(headers['X-RateLimit-Reset']!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 60 });
    expect(headers['Retry-After-RateLimited']!.description).toMatch(/seconds/i);
    expect(headers['Retry-After-Unavailable']!.description).toMatch(/5 when .* 60 when .* refuses .* 1 when/);
    expect(doc.info.description).toContain(`${free} requests per window on Free, ${pro} on Pro`);
  });

  it('marks the request body optional exactly where the route accepts none', () => {
    const routes = routesById();
    const optional: string[] = [];
    for (const [where, op] of operations()) {
      const body = routes.get(op.operationId)!.request.body;
      expect(op.requestBody !== undefined, where).toBe(body !== undefined);
      if (!body) continue;
      const acceptsNone = body.safeParse(undefined).success;
      expect(op.requestBody!.required, where).toBe(!acceptsNone);
      if (acceptsNone) optional.push(op.operationId);
    }
    expect(optional).toEqual(expect.arrayContaining(['approveAppeal', 'banUser', 'kickUser', 'rejectAppeal', 'unbanUser', 'untimeoutUser']));
    expect(optional).not.toContain('warnUser');
    expect(optional).not.toContain('createXpChange');
  });

  it("tags each operation with its route's area, every tag declared and described", () => {
    const routes = routesById();
    const declared = new Map(doc.tags.map((t) => [t.name, t.description]));
    for (const [where, op] of operations()) {
      const area = routes.get(op.operationId)!.area;
      expect(op.tags, where).toEqual([area]);
      expect(AREA_TAGS[area], `describe area ${area} in AREA_TAGS (api/openapi.ts)`).toBeDefined();
      expect(declared.get(area), where).toBe(AREA_TAGS[area]);
      expect(op.description?.trim(), `${where} has a description`).toBeTruthy();
    }
    for (const hook of Object.values(doc.webhooks)) expect(declared.has(hook.post.tags![0]!)).toBe(true);
  });

  it('says in its own words what clients need, without pointing at files they cannot see', () => {
    expect(doc.info.description).not.toMatch(/docs\/|\.md\b|src\//);
    for (const topic of ['Rate limits', 'Idempotency', 'Errors', 'Retry-After', 'X-Request-Id', 'Limits', 'Asynchronous writes']) expect(doc.info.description).toContain(topic);
  });

  it('states the limits a client author needs: body size, list pages, moderation actions, daily flow runs, idempotency window', () => {
    for (const limit of ['65536 bytes', '`limit` 1 to 100', '10 moderation actions per minute per key', '100 flow runs per UTC day on Free, 10,000 on Pro', '24 hours']) {
      expect(doc.info.description).toContain(limit);
    }
  });

  it('describes the lifecycle of every asynchronous status, on the status field itself', () => {
    const statusOf = (schema: string) => (doc.components.schemas[schema]!.properties as Record<string, { description?: string }>).status!.description ?? '';
    const lifecycles: Array<[string, string[]]> = [
      ['XpChange', ['`pending`', '`processing`', '`done`', '`failed`']],
      ['ModAction', ['`pending`', '`running`', '`done`', '`failed`']],
      ['FlowRun', ['`running`', '`success`', '`error`', '`stopped`', '`cancelled`']],
      ['Giveaway', ['`scheduled`', '`active`', '`ended`', '`cancelled`']],
    ];
    for (const [schema, states] of lifecycles) {
      const description = statusOf(schema);
      for (const state of states) expect(description, `${schema}.status`).toContain(state);
      expect(description, `${schema}.status`).toMatch(/→|then/);
    }
    for (const topic of ['XP changes', 'moderation actions', 'flow runs', 'giveaways', 'appeal decisions', 'application decisions', 'ticket closes']) {
      expect(doc.info.description).toContain(topic);
    }
  });
});

describe('the document and the routes agree', () => {
  const documented = () =>
    Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${doc.servers[0]!.url}${koaPath(path)}`))
      .sort();

  it('every route the Koa app serves is documented, and nothing else is', () => {
    expect(servedRoutes().sort()).toEqual(documented());
  });

  it('every documented operation is routed: with a key of another server it reaches GUILD_MISMATCH, not NOT_FOUND', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild);
    // As a generated client does: the server URL resolved against where the document was fetched, then the path.
    const serverUrl = new URL(doc.servers[0]!.url, `${app.baseUrl}/api/v1${DOCUMENT_PATH}`).href;
    const client = createHttpClient(serverUrl);
    for (const [where] of operations()) {
      const [method, path] = where.split(' ') as [string, string];
      const concrete = koaPath(path)
        .replace(':guildId', '100000000000000009')
        .replace(':userId', '100000000000000008')
        .replace(/:\w+/g, '1');
      const res = await client(method, concrete, { headers: bearer(key), body: method === 'GET' ? undefined : {} });
      expect(res.body.error, where).toBe('GUILD_MISMATCH');
    }
  });

  it('undocumented paths and methods are not served', async () => {
    const { key } = await createTestKey(database.db, await createTestGuild(database.db));
    for (const [method, path] of [
      ['GET', '/guilds/100000000000000009/webhooks'],
      ['GET', '/guilds/100000000000000009/no-such-area'],
      ['DELETE', '/guilds/100000000000000009'],
    ] as const) {
      expect(doc.paths[path]?.[method.toLowerCase()]).toBeUndefined();
      const res = await app.http(method, path, { headers: bearer(key) });
      expect([404, 405], `${method} ${path}`).toContain(res.status);
    }
  });
});
