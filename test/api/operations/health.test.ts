import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveBankSettings } from '../../../db/bank/accounts.js';
import { createDatabase } from '../../../db/pool.js';
import { loadConfig } from '../../../src/core/config.js';
import { createLogger } from '../../../src/core/logger.js';
import { buildApiDeps, startApiServer, startWorker, type RunningApi } from '../../../process/wiring.js';
import { useTestDatabase } from '../../harness/database.js';
import { eventually } from '../../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { startTcpProxy } from '../../harness/tcpProxy.js';
import { testGateway, useOwnTemporalServer } from '../../harness/temporal.js';

const database = useTestDatabase();
const gateway = testGateway();
afterAll(() => gateway.client.connection.close());
const logger = createLogger('silent', 'ops-test');
// No propagation delay unless a test asks for one: nothing balances these servers.
const config = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'test', PORT: '0', API_OPS_PORT: '0', WORKER_PORT: '0', SHUTDOWN_PROPAGATION_MS: '0', ...env });

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request, on a connection of its own unless an agent is given. */
function get(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent ?? false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
const json = (answer: Answer) => JSON.parse(answer.body) as unknown;

describe('api probes', () => {
  let api: RunningApi;
  let origin: string;
  beforeAll(async () => {
    api = await startApiServer(buildApiDeps(config(), database.db, gateway, logger));
    origin = api.opsOrigin;
  });
  afterAll(() => api.close());

  it('/livez answers 200 and /readyz 200 with each dependency ok, on the operations port', async () => {
    const live = await get(`${origin}/livez`);
    expect([live.status, json(live)]).toEqual([200, { status: 'ok' }]);
    // The first Temporal call opens the client's connection, which may take longer than /readyz waits for it.
    const ready = await eventually(() => get(`${origin}/readyz`), (answer) => answer.body.includes('"temporal":"ok"'));
    expect([ready.status, json(ready)]).toEqual([200, { status: 'ready', dependencies: { database: 'ok', temporal: 'ok' } }]);
  });

  it('are not on the public port, where /livez, /readyz and /metrics answer 404 like any unknown path', async () => {
    const publicOrigin = new URL(api.url).origin;
    expect(publicOrigin).not.toBe(origin);
    for (const path of ['/livez', '/readyz', '/metrics']) {
      const answer = await get(`${publicOrigin}${path}`);
      expect([path, answer.status, (json(answer) as { error: string }).error]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect((await get(`${origin}/api/v1/openapi.json`)).status).toBe(404);
  });

  it('are on the public port too with API_OPS_ON_PUBLIC_PORT=true', async () => {
    const both = await startApiServer(buildApiDeps(config({ API_OPS_ON_PUBLIC_PORT: 'true' }), database.db, gateway, logger));
    try {
      const publicOrigin = new URL(both.url).origin;
      expect((await get(`${publicOrigin}/livez`)).status).toBe(200);
      expect((await get(`${publicOrigin}/metrics`)).body).toContain('# TYPE http_requests_total counter');
      expect((await get(`${both.opsOrigin}/livez`)).status).toBe(200);
    } finally {
      await both.close();
    }
  });

  it('the public server keeps idle connections and waits for headers as long as the settings say', async () => {
    const tuned = await startApiServer(buildApiDeps(config({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000', HTTP_HEADERS_TIMEOUT_MS: '76000' }), database.db, gateway, logger));
    try {
      expect([tuned.server.keepAliveTimeout, tuned.server.headersTimeout, tuned.server.requestTimeout]).toEqual([75_000, 76_000, 76_000]);
    } finally {
      await tuned.close();
    }
    expect([api.server.keepAliveTimeout, api.server.headersTimeout]).toEqual([65_000, 66_000]);
  });

  it('/readyz stays 200 while PostgreSQL cannot be reached and names it down; a request that needs it answers 503 with Retry-After', async () => {
    const proxy = await startTcpProxy(database.url);
    const unreachable = createDatabase(proxy.url, 1);
    proxy.setDown(true);
    const down = await startApiServer(buildApiDeps(config({ CREDENTIAL_CACHE_ENTRIES: '0' }), unreachable.db, gateway, logger));
    try {
      const downOrigin = down.opsOrigin;
      const ready = await eventually(() => get(`${downOrigin}/readyz`), (answer) => answer.body.includes('"temporal":"ok"'));
      expect([ready.status, json(ready)]).toEqual([200, { status: 'ready', dependencies: { database: 'down', temporal: 'ok' } }]);
      expect((await get(`${downOrigin}/livez`)).status).toBe(200);
      const read = await get(`${down.url}/guilds/123456789012345678/bank/members/223456789012345678`, { headers: { Authorization: `Bearer svc_${'A'.repeat(43)}` } });
      expect([read.status, read.headers['retry-after'], (json(read) as { error: string }).error]).toEqual([503, '5', 'SERVICE_UNAVAILABLE']);
      // The dependency is a metric to alert on instead.
      const metrics = await get(`${downOrigin}/metrics`);
      expect(metrics.body).toMatch(/^dependency_up\{dependency="database"\} 0$/m);
      expect(metrics.body).toMatch(/^dependency_up\{dependency="temporal"\} 1$/m);
    } finally {
      await down.close();
      await unreachable.close();
      await proxy.close();
    }
  });
});

// Bounds generous enough for a loaded CI machine, where creating the guild and key alone has taken seconds.
describe('api shutdown', () => {
  /** A POST whose transaction waits on a row lock held by another session, so it is in flight until released. */
  async function heldRequest(origin: string) {
    const guild = await createTestGuild(database.db);
    await saveBankSettings(database.db, guild.id, { currency: { name: 'gem', plural: 'gems', emoji: '💎' }, startingBalance: 10, maxBalance: null, logChannelId: null });
    const { key } = await createTestKey(database.db, guild, { scopes: ['bank:write'] });
    const userId = await addTestMember(database.db, guild);
    const path = `${origin}/api/v1/guilds/${guild.id}/bank/members/${userId}/transactions`;
    const body = JSON.stringify({ type: 'add', amount: 5 });
    const headers = { ...bearer(key), 'Content-Type': 'application/json' };
    // The account's row, to be locked below.
    expect((await get(path, { method: 'POST', headers, body })).status).toBe(201);
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    await locker.query('begin');
    const { rows: locked } = await locker.query('select pg_backend_pid() as pid from bank_accounts where guild_id = $1 and user_id = $2 for update', [guild.id, userId]);
    expect(locked).toHaveLength(1);
    const lockerPid = (locked[0] as { pid: number }).pid;
    // A keep-alive client, whose connection the server would otherwise keep open after the answer. Its socket is new:
    // an idle one reused from an earlier request may be closed by the server's keep-alive timeout as it is reused.
    const agent = new Agent({ keepAlive: true });
    const answer = get(path, { method: 'POST', headers, body, agent });
    answer.catch(() => {});
    const release = async () => {
      await locker.query('rollback');
      await locker.end();
    };
    // Asked through the pool, outside the locker's transaction: PostgreSQL reads pg_stat_activity once per transaction
    // and shows that snapshot until the transaction ends, so polled from inside it the count never changes. That is why
    // the held POST seemed never to reach its lock in loaded runs: the first poll came before the POST got there.
    const blocked = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${lockerPid} = any(pg_blocking_pids(pid))`.execute(database.db)).rows[0]!.n;
    let settled: Answer | Error | undefined;
    answer.then((a) => (settled = a), (err: Error) => (settled = err));
    const waiters = await eventually(blocked, (n) => n > 0 || settled !== undefined, 25_000);
    if (waiters !== 1) {
      // Never leave the lock held: the file's database could not be dropped after it.
      await release();
      expect({ waiters, settled }).toEqual({ waiters: 1, settled: undefined });
    }
    return { answer, release, agent };
  }

  it('turns not-ready at once, serves through the propagation delay, then stops accepting, lets the in-flight request finish with Connection: close, and closes', async () => {
    let waited: number | undefined;
    let propagated!: () => void;
    const wait = (ms: number) => {
      waited = ms;
      return new Promise<void>((resolve) => (propagated = resolve));
    };
    const api = await startApiServer(buildApiDeps(config({ SHUTDOWN_PROPAGATION_MS: '7000' }), database.db, gateway, logger), { wait });
    const origin = new URL(api.url).origin;
    const { answer, release, agent } = await heldRequest(origin);
    const closed = api.close();
    expect(waited).toBe(7000);
    // During the delay: the probe says draining, and new connections are still accepted and answered, each closed after its answer.
    const ready = await get(`${api.opsOrigin}/readyz`);
    expect([ready.status, (json(ready) as { status: string }).status]).toEqual([503, 'draining']);
    const served = await get(`${api.url}/openapi.json`);
    expect([served.status, served.headers.connection]).toEqual([200, 'close']);
    propagated();
    await eventually(async () => api.server.listening, (listening) => !listening);
    await expect(get(`${api.url}/openapi.json`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // The operations port stays up through the drain, still saying draining.
    expect((await get(`${api.opsOrigin}/readyz`)).status).toBe(503);
    await release();
    const res = await answer;
    expect(res.status).toBe(201);
    expect(res.headers.connection).toBe('close');
    await closed;
    await expect(get(`${api.opsOrigin}/livez`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    agent.destroy();
  }, 90_000);

  it('cuts a request still running when the drain time is over', async () => {
    const api = await startApiServer(buildApiDeps(config({ SHUTDOWN_DRAIN_MS: '100', SHUTDOWN_PROPAGATION_MS: '0' }), database.db, gateway, logger));
    const { answer, release } = await heldRequest(new URL(api.url).origin);
    try {
      await api.close();
      await expect(answer).rejects.toMatchObject({ code: 'ECONNRESET' });
    } finally {
      await release();
    }
  }, 90_000);
});

describe('worker probes', () => {
  const temporal = useOwnTemporalServer();

  it('/readyz on the worker port says the database, Temporal and the polling worker are ok, /metrics answers; stop closes it', async () => {
    const workerConfig = config({ TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace, TEMPORAL_TASK_QUEUE: `ops-test-${randomUUID()}` });
    const client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: temporal.namespace });
    const worker = await startWorker(workerConfig, database.db, { client, taskQueue: workerConfig.temporal.taskQueue }, logger);
    let stopped = false;
    try {
      const ready = await eventually(() => get(`${worker.opsOrigin}/readyz`), (answer) => answer.body.includes('"temporal":"ok"'));
      expect([ready.status, json(ready)]).toEqual([200, { status: 'ready', checks: { worker: 'ok' }, dependencies: { database: 'ok', temporal: 'ok' } }]);
      expect((await get(`${worker.opsOrigin}/livez`)).status).toBe(200);
      expect((await get(`${worker.opsOrigin}/other`)).status).toBe(404);
      const metrics = await get(`${worker.opsOrigin}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.body).toContain('# TYPE workflow_starts_total counter');
      expect(metrics.body).toContain('# TYPE webhook_attempts_total counter');
      await worker.stop();
      stopped = true;
      await expect(get(`${worker.opsOrigin}/livez`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      if (!stopped) await worker.stop();
      await client.connection.close();
    }
  });
});
