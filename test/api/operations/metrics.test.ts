import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { saveBankSettings } from '../../../db/bank/accounts.js';
import type { DatabaseHandle } from '../../../db/pool.js';
import { loadConfig } from '../../../src/core/config.js';
import { createLogger } from '../../../src/core/logger.js';
import { sendAttempt } from '../../../src/webhooks/sendAttempt.js';
import { buildApiDeps, openDatabase, startApiServer, type RunningApi } from '../../../process/wiring.js';
import { useTestDatabase } from '../../harness/database.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { createHttpClient } from '../../harness/httpClient.js';
import { testGateway } from '../../harness/temporal.js';

const database = useTestDatabase();
const gateway = testGateway();
let handle: DatabaseHandle;
let api: RunningApi;
let receiver: Server;
beforeAll(async () => {
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', API_OPS_PORT: '0', SHUTDOWN_PROPAGATION_MS: '0', DATABASE_URL: database.url, RATE_LIMIT_FREE_PER_MINUTE: '6', RATE_LIMIT_PRO_PER_MINUTE: '6' });
  // Through the entrypoint's own opening, which also points the pool and outbox gauges at this database.
  const logger = createLogger('silent', 'metrics-test');
  handle = openDatabase(config, logger, 'api');
  api = await startApiServer(buildApiDeps(config, handle.db, gateway, logger));
  receiver = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await api.close();
  await handle.close();
  await gateway.client.connection.close();
  await new Promise((resolve) => receiver.close(resolve));
});

/** The value of one series in a scrape, or undefined when it is absent. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).match(/^\{(.*)\}/)?.[1] ?? '';
    const has = Object.entries(labels).every(([key, value]) => labelText.split(',').includes(`${key}="${value}"`));
    if (has) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

async function scrape(): Promise<string> {
  const res = await fetch(`${api.opsOrigin}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** Scrapes until `ready` holds of the scrape (at most 20 s), and answers the last scrape either way. */
async function scrapeUntil(ready: (text: string) => boolean): Promise<string> {
  let text = await scrape();
  for (let tries = 0; tries < 200 && !ready(text); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    text = await scrape();
  }
  return text;
}

it('/metrics shows requests, latency, refusals, replays, workflow starts, webhook attempts, outbox lag and the pool', async () => {
  const http = createHttpClient(api.url);
  const guild = await createTestGuild(database.db);
  await saveBankSettings(database.db, guild.id, { currency: { name: 'gem', plural: 'gems', emoji: '💎' }, startingBalance: 0, maxBalance: null, logChannelId: null });
  const { key } = await createTestKey(database.db, guild);
  const userId = await addTestMember(database.db, guild);
  const bank = `/guilds/${guild.id}/bank/members/${userId}/transactions`;
  const before = await scrape();
  const route = '/api/v1/guilds/:guildId/bank/members/:userId/transactions';
  const posted = (text: string) => valueOf(text, 'http_requests_total', { method: 'POST', route, status: '201' }) ?? 0;

  const write = { headers: { ...bearer(key), 'Idempotency-Key': 'metrics-1' }, body: { type: 'add', amount: 5 } };
  expect((await http('POST', bank, write)).status).toBe(201);
  expect((await http('POST', bank, write)).headers['idempotent-replayed']).toBe('true');
  expect((await http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, { headers: bearer(key), body: { type: 'add', amount: 5 } })).status).toBe(202);
  expect((await http('GET', bank, { headers: { Authorization: 'Bearer not-a-key' } })).status).toBe(401);
  let limited = 0;
  for (let i = 0; i < 8 && limited === 0; i += 1) limited = (await http('GET', bank, { headers: bearer(key) })).status === 429 ? 1 : 0;
  expect(limited).toBe(1);
  const attempt = await sendAttempt(new Agent(), { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, secrets: ['whsec_test'], eventId: 'evt_1', body: '{}' }, 0);
  expect(attempt.ok).toBe(true);

  // The XP change's workflow starts after its commit, beside the 202, not before it: wait for the start to be counted.
  const xpStarts = (text: string) => valueOf(text, 'workflow_starts_total', { workflow_type: 'xpChange', outcome: 'started' }) ?? 0;
  const after = await scrapeUntil((text) => xpStarts(text) > xpStarts(before));
  const delta = (name: string, labels: Record<string, string> = {}) => (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
  expect(posted(after) - posted(before)).toBe(2);
  expect(delta('http_request_duration_seconds_count', { method: 'POST', route, status: '201' })).toBe(2);
  expect(valueOf(after, 'http_request_duration_seconds_bucket', { method: 'POST', route, status: '201', le: '+Inf' })).toBeGreaterThanOrEqual(2);
  expect(delta('idempotency_replays_total')).toBe(1);
  expect(delta('api_refusals_total', { reason: 'INVALID_API_KEY' }) + delta('api_refusals_total', { reason: 'UNAUTHORIZED' })).toBe(1);
  expect(delta('api_refusals_total', { reason: 'key_rate_limit' })).toBe(1);
  expect(delta('workflow_starts_total', { workflow_type: 'xpChange', outcome: 'started' })).toBe(1);
  expect(delta('webhook_attempts_total', { outcome: 'delivered' })).toBe(1);
  expect(valueOf(after, 'outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
  expect(valueOf(after, 'db_pool_connections', { state: 'max' })).toBe(20);
  expect(valueOf(after, 'db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  expect(after).toContain('# TYPE platform_requests_total counter');
  expect(after).toContain('# TYPE process_cpu_seconds_total counter');
});
