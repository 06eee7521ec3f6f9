import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../../db/pool.js';
import { loadConfig } from '../../../src/core/config.js';
import { createLogger } from '../../../src/core/logger.js';
import { buildApiDeps, startApiServer, startWorker, type RunningApi } from '../../../process/wiring.js';
import { useTestDatabase } from '../../harness/database.js';
import { startTcpProxy } from '../../harness/tcpProxy.js';
import { testGateway, useOwnTemporalServer } from '../../harness/temporal.js';

const database = useTestDatabase();
const gateway = testGateway();
afterAll(() => gateway.client.connection.close());
const logger = createLogger('silent', 'ops-test');
const config = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'test', PORT: '0', WORKER_PORT: '0', ...env });

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
    origin = new URL(api.url).origin;
  });
  afterAll(() => api.close());

  it('/livez answers 200 and /readyz 200 with each dependency ok', async () => {
    const live = await get(`${origin}/livez`);
    expect([live.status, json(live)]).toEqual([200, { status: 'ok' }]);
    const ready = await get(`${origin}/readyz`);
    expect([ready.status, json(ready)]).toEqual([200, { status: 'ready', checks: { database: 'ok', temporal: 'ok' } }]);
  });

  it('/readyz answers 503 naming the database while it cannot be reached, /livez still 200', async () => {
    const proxy = await startTcpProxy(database.url);
    const unreachable = createDatabase(proxy.url, 1);
    proxy.setDown(true);
    const down = await startApiServer(buildApiDeps(config(), unreachable.db, gateway, logger));
    try {
      const downOrigin = new URL(down.url).origin;
      const ready = await get(`${downOrigin}/readyz`);
      expect([ready.status, json(ready)]).toEqual([503, { status: 'not_ready', checks: { database: 'down', temporal: 'ok' } }]);
      expect((await get(`${downOrigin}/livez`)).status).toBe(200);
    } finally {
      await down.close();
      await unreachable.close();
      await proxy.close();
    }
  });
});

describe('worker probes', () => {
  const temporal = useOwnTemporalServer();

  it('/readyz on the worker port says the database, Temporal and the polling worker are ok, /metrics answers; stop closes it', async () => {
    const workerConfig = config({ TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace, TEMPORAL_TASK_QUEUE: `ops-test-${randomUUID()}` });
    const client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: temporal.namespace });
    const worker = await startWorker(workerConfig, database.db, { client, taskQueue: workerConfig.temporal.taskQueue }, logger);
    let stopped = false;
    try {
      const ready = await get(`${worker.opsOrigin}/readyz`);
      expect([ready.status, json(ready)]).toEqual([200, { status: 'ready', checks: { database: 'ok', temporal: 'ok', worker: 'ok' } }]);
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
