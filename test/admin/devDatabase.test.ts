import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import { loadConfig } from '../../src/core/config.js';
import { adminSetup } from '../../process/admin/adminSetup.js';
import { withDatabase } from '../../process/infra/embeddedPostgres.js';
import { createTestGuild, type TestGuild } from '../harness/fixtures.js';
import { TEMPLATE_DATABASE } from '../harness/template.js';
import { PRODUCTION_ENV } from '../harness/productionEnv.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('adminSetup: what the admin CLI works on', () => {
  it('without DATABASE_URL: the dev database and Temporal, and local webhook receivers allowed without setting anything', async () => {
    const setup = await adminSetup(loadConfig({ NODE_ENV: 'development', DEV_POSTGRES_PORT: '54400' }), root);
    expect(setup).toEqual({
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:54400/community_bot',
      devDatabase: true,
      allowInsecureWebhookUrls: true,
      temporal: expect.objectContaining({ address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'community-bot' }),
    });
  });

  it.each([
    ['with DATABASE_URL', { DATABASE_URL: 'postgres://db.example/x' }, false],
    ['with DATABASE_URL and WEBHOOK_ALLOW_INSECURE_LOCAL=true', { DATABASE_URL: 'postgres://db.example/x', WEBHOOK_ALLOW_INSECURE_LOCAL: 'true' }, true],
    ['on the dev database with WEBHOOK_ALLOW_INSECURE_LOCAL=false', { WEBHOOK_ALLOW_INSECURE_LOCAL: 'false' }, false],
    ['on the dev database with NODE_ENV=production', PRODUCTION_ENV, false],
  ])('%s, local receivers allowed: %s', async (_, env, allowed) => {
    expect((await adminSetup(loadConfig(env), root)).allowInsecureWebhookUrls).toBe(allowed);
  });

  it('starts fan-outs at TEMPORAL_ADDRESS when set, and leaves them to the relay with DATABASE_URL and no TEMPORAL_ADDRESS', async () => {
    expect((await adminSetup(loadConfig({ TEMPORAL_ADDRESS: 'temporal.example:7233' }), root)).temporal?.address).toBe('temporal.example:7233');
    expect((await adminSetup(loadConfig({ DATABASE_URL: 'postgres://db.example/x' }), root)).temporal).toBeUndefined();
  });
});

// The dev database is `community_bot` on 127.0.0.1:DEV_POSTGRES_PORT: made here on the run's own embedded server, so
// skipped when the run uses a server of DATABASE_URL (which may hold a real dev database of that name).
describe.skipIf(Boolean(process.env.DATABASE_URL))('npm run admin against a dev-like setup (no DATABASE_URL)', () => {
  const serverUrl = inject('databaseUrl');
  const port = new URL(serverUrl).port;
  const devUrl = withDatabase(serverUrl, 'community_bot');
  let dev: DatabaseHandle;
  let guild: TestGuild;

  async function adminQuery(sql: string) {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE community_bot TEMPLATE ${TEMPLATE_DATABASE}`);
    dev = createDatabase(devUrl, 2);
    guild = await createTestGuild(dev.db);
  });
  afterAll(async () => {
    await dev?.close();
    await adminQuery('DROP DATABASE IF EXISTS community_bot WITH (FORCE)');
  });

  /** The CLI as a process, with exactly the given settings (nothing inherited that could decide the outcome). */
  function admin(env: Record<string, string>, ...argv: string[]) {
    const { DATABASE_URL, WEBHOOK_ALLOW_INSECURE_LOCAL, TEMPORAL_ADDRESS, NODE_ENV, DEV_POSTGRES_PORT, ...inherited } = process.env;
    return promisify(execFile)('npx', ['tsx', 'process/entrypoints/admin.ts', ...argv], { env: { ...inherited, ...env }, cwd: root }).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
  }
  const lastLine = (stderr: string) => stderr.split('\n').filter((l) => l !== '' && !l.startsWith('npm warn')).at(-1)!;
  const addLocalEndpoint = (env: Record<string, string>) =>
    admin(env, 'webhook', 'add', '--guild', guild.id, '--url', 'http://127.0.0.1:8080/hook', '--events', 'all', '--json');

  it('registers an http://127.0.0.1 endpoint on the dev database without WEBHOOK_ALLOW_INSECURE_LOCAL', async () => {
    const res = await addLocalEndpoint({ NODE_ENV: 'development', DEV_POSTGRES_PORT: port });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ url: 'http://127.0.0.1:8080/hook', events: 'all', enabled: true, secret: expect.any(String) });
  });

  it('refuses it on the same database named by DATABASE_URL, as on any other', async () => {
    const res = await addLocalEndpoint({ NODE_ENV: 'development', DATABASE_URL: devUrl });
    expect(res.code).toBe(1);
    expect(JSON.parse(lastLine(res.stderr))).toMatchObject({ error: 'INVALID_URL' });
  });

  it('refuses to start with WEBHOOK_ALLOW_INSECURE_LOCAL=true and NODE_ENV=production (exit code 2)', async () => {
    const res = await addLocalEndpoint({ NODE_ENV: 'production', WEBHOOK_ALLOW_INSECURE_LOCAL: 'true', DEV_POSTGRES_PORT: port });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('WEBHOOK_ALLOW_INSECURE_LOCAL: must not be true with NODE_ENV=production');
  });
});
