import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../process/infra/freePort.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { startOtlpReceiver, type ReceivedSpan } from '../harness/otlpReceiver.js';
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
});
