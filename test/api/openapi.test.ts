import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../api/app.js';
import { koaPath } from '../../api/route.js';
import { useTestDatabase } from '../harness/database.js';
import { bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { useTestApp } from '../harness/testApp.js';

const database = useTestDatabase();
const app = useTestApp(() => database.db);

type Operation = {
  security: Array<Record<string, string[]>>;
  'x-required-scope': string;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
};

async function document() {
  const res = await app.http('GET', '/openapi.json');
  expect(res.status).toBe(200);
  return res.body as { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };
}

describe('OpenAPI document', () => {
  it('is served without authentication and is a valid OpenAPI 3.1 document, version 1.0.0', async () => {
    const doc = await document();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('1.0.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('declares the bearer scheme, each operation with its scope, every error and the rate-limit headers', async () => {
    const doc = await document();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (path.endsWith('/openapi.json')) continue;
      for (const [method, op] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.security, where).toEqual([{ bearerAuth: [op['x-required-scope']] }]);
        for (const status of ['400', '401', '403', '429', '500', '503']) expect(op.responses[status], `${where} ${status}`).toBeDefined();
        expect(Object.keys(op.responses['429']!.headers ?? {})).toContain('Retry-After');
        expect(Object.keys(op.responses['503']!.headers ?? {})).toContain('Retry-After');
        expect(Object.keys(op.responses['401']!.headers ?? {})).toContain('WWW-Authenticate');
        const success = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
        expect(Object.keys(op.responses[success]!.headers ?? {}), where).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
      }
    }
  });

  it('documents every event kind in the webhooks section with its data schema', async () => {
    const doc = (await document()) as unknown as { webhooks: Record<string, { post: { requestBody: unknown } }> };
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'appeals.submitted', 'applications.submitted', 'bank.transaction', 'giveaways.ended', 'levels.levelUp', 'members.joined',
      'members.left', 'moderation.caseCreated', 'shop.purchase', 'shop.refund', 'tickets.closed', 'tickets.opened', 'webhook.test',
    ]);
    expect(JSON.stringify(doc.webhooks['bank.transaction']!.post.requestBody)).toContain('BankTransactionEvent');
  });

  it('documents every route the app serves, and nothing else', async () => {
    const doc = await document();
    const documented = Object.entries(doc.paths)
      .filter(([path]) => !path.endsWith('/openapi.json'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const served = allRoutes(app.deps).map((r) => `${r.method.toUpperCase()} /api/v1${r.path}`).sort();
    expect(documented).toEqual(served);

    // And each documented operation is really routed: with a key of another guild it gets past routing
    // to GUILD_MISMATCH instead of NOT_FOUND.
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild);
    for (const entry of documented) {
      const [method, path] = entry.split(' ') as [string, string];
      const concrete = koaPath(path)
        .replace(':guildId', '100000000000000009')
        .replace(':userId', '100000000000000008')
        .replace(':changeId', 'xpc_AAAAAAAAAAAAAAAA')
        .replace('/api/v1', '');
      const res = await app.http(method, concrete, { headers: bearer(key), body: method === 'GET' ? undefined : {} });
      expect(res.body.error, entry).toBe('GUILD_MISMATCH');
    }
  });
});
