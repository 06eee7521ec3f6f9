import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../process/infra/freePort.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { startOtlpReceiver, type ReceivedSpan } from '../harness/otlpReceiver.js';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { saveBankSettings } from '../../db/bank/accounts.js';
import { systemClock } from '../../src/core/clock.js';
import { addEndpoint } from '../../src/webhooks/endpointManagement.js';
import { startServiceProcess, untilReady, type ServiceProcess } from '../harness/serviceProcess.js';
import { useOwnTemporalServer } from '../harness/temporal.js';

// Traces as an operator gets them: the api and the worker as the processes `npm run api` and `npm run worker` start,
// exporting through OTLP/HTTP to a collector on loopback, configured by the standard OTEL_* variables only.

const database = useTestDatabase();
// The worker creates the maintenance schedules, whose ids are global on a Temporal server.
const temporal = useOwnTemporalServer();

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let api: ServiceProcess;
let worker: ServiceProcess;
let apiOrigin: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const [apiPort, apiOpsPort, workerPort] = [await freePort(), await freePort(), await freePort()];
  const env = {
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace,
    TEMPORAL_TASK_QUEUE: `tracing-${randomBytes(4).toString('hex')}`,
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    API_OPS_PORT: String(apiOpsPort),
    WORKER_PORT: String(workerPort),
    LOG_LEVEL: 'debug',
    // The webhook receiver below listens on loopback.
    WEBHOOK_ALLOW_INSECURE_LOCAL: 'true',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    // Export at once rather than every 5 s, so the test does not wait on the batch timer.
    OTEL_BSP_SCHEDULE_DELAY: '50',
  };
  apiOrigin = `http://127.0.0.1:${apiPort}`;
  api = startServiceProcess('api', env);
  worker = startServiceProcess('worker', env);
  await Promise.all([untilReady(api, `http://127.0.0.1:${apiOpsPort}/readyz`), untilReady(worker, `http://127.0.0.1:${workerPort}/readyz`)]);
}, 180_000);

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await receiver?.close();
});

const logObjects = (service: ServiceProcess) => service.lines.flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as Record<string, unknown>] : []));

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('exports one trace per XP change, from the api request through the workflow start, the workflow and its activities to their SQL', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['levels:read', 'levels:write'] });
    const userId = await addTestMember(database.db, guild);
    const res = await fetch(`${apiOrigin}/api/v1/guilds/${guild.id}/levels/members/${userId}/xp-changes`, {
      method: 'POST',
      headers: { ...bearer(key), 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'add', amount: 120 }),
    });
    expect(res.status).toBe(202);
    const requestId = res.headers.get('x-request-id');
    const { changeId } = (await res.json()) as { changeId: string };

    const serverSpan = await eventually(
      async () => receiver.spans.find((s) => s.service === 'community-bot-api' && s.attributes['http.request.id'] === requestId),
      (span) => span !== undefined,
    );
    expect(serverSpan).toBeDefined();
    expect(serverSpan!.attributes['http.route']).toBe('/api/v1/guilds/:guildId/levels/members/:userId/xp-changes');
    const traceId = serverSpan!.traceId;
    const inTrace = () => receiver.spans.filter((s) => s.traceId === traceId);
    const has = (spans: ReceivedSpan[], service: string, name: RegExp) => spans.some((s) => s.service === service && name.test(s.name));
    const expected: Array<[string, RegExp]> = [
      ['community-bot-api', /^POST$|^POST /], // the http server span
      ['community-bot-api', /^router - |^middleware - /], // koa's, present only through the ESM hook
      ['community-bot-api', /^StartWorkflow:xpChange$/],
      ['community-bot-api', /^pg\.query/],
      ['community-bot-worker', /^RunWorkflow:xpChange$/], // the workflow's own span, through the adapted sink
      ['community-bot-worker', /^StartActivity:/],
      ['community-bot-worker', /^RunActivity:/],
      ['community-bot-worker', /^pg\.query/],
    ];
    const spans = await eventually(async () => inTrace(), (all) => expected.every(([service, name]) => has(all, service, name)));
    expect(expected.filter(([service, name]) => !has(spans, service, name))).toEqual([]);

    // One trace: every span of it hangs from another span of it, except the request's own root.
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s.parentSpanId !== '' && !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([]);
    expect(spans.filter((s) => s.parentSpanId === '').map((s) => s.spanId)).toEqual([serverSpan!.spanId]);

    const done = await eventually(
      async () => (await fetch(`${apiOrigin}/api/v1/guilds/${guild.id}/levels/xp-changes/${changeId}`, { headers: bearer(key) })).json() as Promise<{ status: string }>,
      (body) => body.status === 'done',
    );
    expect(done.status).toBe('done');

    // The log lines of that path name the trace and the request: the api's line for the request, the worker's per activity.
    const apiLines = await eventually(async () => logObjects(api).filter((line) => line.requestId === requestId), (lines) => lines.length > 0);
    expect(apiLines.map((line) => [line.msg, line.traceId])).toEqual([['request answered', traceId]]);
    const workerLines = logObjects(worker).filter((line) => line.traceId === traceId);
    expect(workerLines.length).toBeGreaterThan(0);
    expect(workerLines.filter((line) => line.requestId !== requestId)).toEqual([]);
    expect(new Set(workerLines.map((line) => line.msg))).toEqual(new Set(['activity finished']));
  }, 150_000);

  it("shows the OAuth2 callback's code, state and error_description as REDACTED in the server span, and logs none of them", async () => {
    const secret = randomBytes(8).toString('hex');
    const query = `code=code-${secret}&state=state-${secret}&error_description=why-${secret}&lang=en`;
    const res = await fetch(`${apiOrigin}/console/oauth/callback?${query}`, { redirect: 'manual' });
    expect(res.status).toBe(404); // local platform: the callback refuses, its URL still reaches the span
    const requestId = res.headers.get('x-request-id');
    const span = await eventually(
      async () => receiver.spans.find((s) => s.service === 'community-bot-api' && s.attributes['url.path'] === '/console/oauth/callback' && s.attributes['http.request.id'] === requestId),
      (found) => found !== undefined,
    );
    expect(span!.attributes['url.query']).toBe('code=REDACTED&state=REDACTED&error_description=REDACTED&lang=en');
    expect(JSON.stringify(receiver.spans)).not.toContain(secret);
    await eventually(async () => logObjects(api).filter((line) => line.requestId === requestId), (lines) => lines.length > 0);
    expect(api.lines.join('\n')).not.toContain(secret);
  }, 60_000);

  it("shows a flow webhook URL's path without its token, in spans and in log lines", async () => {
    const token = `fwh_${randomBytes(32).toString('base64url').slice(0, 43)}`;
    const res = await fetch(`${apiOrigin}/hooks/flows/${token}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404); // no such flow: the URL still reaches the span and the log line
    const requestId = res.headers.get('x-request-id');
    const span = await eventually(
      async () => receiver.spans.find((s) => s.service === 'community-bot-api' && s.attributes['http.request.id'] === requestId),
      (found) => found !== undefined,
    );
    expect(span!.attributes['url.path']).toBe('/hooks/flows/[redacted]');
    const line = await eventually(async () => logObjects(api).find((l) => l.requestId === requestId), (found) => found !== undefined);
    expect(line!.path).toBe('/hooks/flows/[redacted]');
    expect(JSON.stringify(receiver.spans)).not.toContain(token);
    expect(api.lines.join('\n')).not.toContain(token);
  }, 60_000);

  it('starts a trace of its own for a request that arrives with a trace context and baggage (TRACE_TRUST_INCOMING is off)', async () => {
    const foreignTrace = randomBytes(16).toString('hex');
    const res = await fetch(`${apiOrigin}/api/v1/openapi.json`, { headers: { traceparent: `00-${foreignTrace}-${randomBytes(8).toString('hex')}-01`, baggage: 'request.id=forged' } });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    const span = await eventually(
      async () => receiver.spans.find((s) => s.service === 'community-bot-api' && s.attributes['http.request.id'] === requestId),
      (found) => found !== undefined,
    );
    expect([span!.traceId === foreignTrace, span!.parentSpanId]).toEqual([false, '']);
    expect(receiver.spans.filter((s) => s.traceId === foreignTrace)).toEqual([]);
  }, 60_000);

  it("sends a customer's webhook receiver the trace context but not the baggage that carries the request id", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const hooks = createServer((req, res) => {
      seen.push(req.headers);
      req.resume().on('end', () => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    try {
      const guild = await createTestGuild(database.db);
      await saveBankSettings(database.db, guild.id, { currency: { name: 'gem', plural: 'gems', emoji: '💎' }, startingBalance: 0, maxBalance: null, logChannelId: null });
      const url = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
      await addEndpoint({ db: database.db, clock: systemClock, actor: { type: 'system' }, allowInsecureLocal: true }, { guildId: guild.id, url, events: ['bank.transaction'] });
      const { key } = await createTestKey(database.db, guild, { scopes: ['bank:write'] });
      const userId = await addTestMember(database.db, guild);
      const res = await fetch(`${apiOrigin}/api/v1/guilds/${guild.id}/bank/members/${userId}/transactions`, {
        method: 'POST',
        headers: { ...bearer(key), 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'add', amount: 3 }),
      });
      expect(res.status).toBe(201);
      const requestId = res.headers.get('x-request-id');
      await eventually(async () => seen.length, (n) => n > 0, 90_000);
      const delivery = seen[0]!;
      expect(delivery.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
      expect(delivery.baggage).toBeUndefined();
      // The delivery ran inside the request's trace, where the request id was baggage: its activity's log lines name it.
      const traceId = String(delivery.traceparent).split('-')[1];
      const activityLines = await eventually(async () => logObjects(worker).filter((l) => l.traceId === traceId), (lines) => lines.length > 0);
      expect(activityLines.map((l) => l.requestId)).toContain(requestId);
    } finally {
      await new Promise((resolve) => hooks.close(resolve));
    }
  }, 150_000);
});
