import SwaggerParser from '@apidevtools/swagger-parser';
import type Router from '@koa/router';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app.js';
import { AREAS } from '../../../src/process/areas.js';
import { collectRoutes } from '../../../src/process/registry.js';
import { koaPath } from '../../../api/mountRoutes.js';
import { SCOPES } from '../../../src/core/scopes.js';
import { useTestDatabase } from '../../harness/database.js';
import { bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { useTestApp } from '../../harness/testApp.js';

const database = useTestDatabase();
const app = useTestApp(() => database.db);

type Response = { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> };
type Operation = {
  security: Array<Record<string, string[]>>;
  'x-required-scope'?: string;
  responses: Record<string, Response>;
};
type Document = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};

const DOCUMENT_PATH = '/api/v1/openapi.json';
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
  const routers = createApp(app.deps, collectRoutes(AREAS, app.deps))
    .middleware.map((mw) => (mw as { router?: Router }).router)
    .filter((router): router is Router => router !== undefined);
  return routers.flatMap((router) =>
    router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`)),
  );
}

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
      expect(successes, where).toHaveLength(1);
      expect(Object.keys(op.responses[successes[0]!]!.headers ?? {}), where).toEqual(
        expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      );
    }
  });

  it('documents every event kind in the webhooks section with its data schema', () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: { requestBody: unknown } }> }).webhooks;
    expect(Object.keys(webhooks).sort()).toEqual([
      'appeals.submitted', 'applications.submitted', 'bank.transaction', 'giveaways.ended', 'levels.levelUp', 'members.joined',
      'members.left', 'moderation.caseCreated', 'shop.purchase', 'shop.refund', 'tickets.closed', 'tickets.opened', 'webhook.test',
    ]);
    expect(JSON.stringify(webhooks['bank.transaction']!.post.requestBody)).toContain('BankTransactionEvent');
  });
});

describe('the document and the routes agree', () => {
  const documented = () =>
    Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${koaPath(path)}`))
      .sort();

  it('every route the Koa app serves is documented, and nothing else is', () => {
    expect(servedRoutes().sort()).toEqual(documented());
  });

  it('every documented operation is routed: with a key of another server it reaches GUILD_MISMATCH, not NOT_FOUND', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild);
    for (const [where] of operations()) {
      const [method, path] = where.split(' ') as [string, string];
      const concrete = koaPath(path)
        .replace('/api/v1', '')
        .replace(':guildId', '100000000000000009')
        .replace(':userId', '100000000000000008')
        .replace(/:\w+/g, '1');
      const res = await app.http(method, concrete, { headers: bearer(key), body: method === 'GET' ? undefined : {} });
      expect(res.body.error, where).toBe('GUILD_MISMATCH');
    }
  });

  it('undocumented paths and methods are not served', async () => {
    const { key } = await createTestKey(database.db, await createTestGuild(database.db));
    for (const [method, path] of [
      ['GET', '/guilds/100000000000000009/webhooks'],
      ['GET', '/guilds/100000000000000009/tickets'],
      ['DELETE', '/guilds/100000000000000009'],
    ] as const) {
      expect(doc.paths[`/api/v1${path}`]?.[method.toLowerCase()]).toBeUndefined();
      const res = await app.http(method, path, { headers: bearer(key) });
      expect([404, 405], `${method} ${path}`).toContain(res.status);
    }
  });
});
