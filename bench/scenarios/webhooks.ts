import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { markEndpointRemoved } from '../../db/webhooks/webhooks.js';
import { applyBankChange } from '../../src/bank/applyBankChange.js';
import { systemClock } from '../../src/core/clock.js';
import { startFanouts } from '../../src/events/outbox.js';
import { addEndpoint } from '../../src/webhooks/endpointManagement.js';
import { latencySummary, type LatencySummary } from '../latency.js';
import { cpuSnapshot, cpuUse, type CpuUse } from '../machineCpu.js';
import { BENCH_GUILD_ID, memberId } from '../seed.js';
import type { ScenarioContext } from './context.js';
import { webhookStages, type WebhookStages } from './webhookStages.js';


/** Loopback receivers, each an endpoint of the bench guild, noting when each transaction's event first arrived and how often. */
interface Receivers {
  /** Per receiver: transaction id -> first arrival (performance.now()). */
  arrivals: Array<Map<string, number>>;
  /** Requests received in all: more than the deliveries means a duplicated attempt. */
  requests(): number;
}

async function withReceivers<T>(ctx: ScenarioContext, delaysMs: number[], run: (r: Receivers) => Promise<T>): Promise<T> {
  const arrivals = delaysMs.map(() => new Map<string, number>());
  let requests = 0;
  const servers = delaysMs.map((delayMs, i) =>
    createServer({ keepAlive: true }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { transactionId: number } };
        requests++;
        if (!arrivals[i]!.has(String(data.transactionId))) arrivals[i]!.set(String(data.transactionId), performance.now());
        setTimeout(() => res.writeHead(204).end(), delayMs);
      });
    }),
  );
  const endpoints = [];
  try {
    for (const server of servers) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const deps = { db: ctx.db, clock: systemClock, actor: { type: 'system' as const }, allowInsecureLocal: true };
      endpoints.push(await addEndpoint(deps, { guildId: BENCH_GUILD_ID, url, events: ['bank.transaction'] }));
    }
    return await run({ arrivals, requests: () => requests });
  } finally {
    for (const endpoint of endpoints) await markEndpointRemoved(ctx.db, endpoint.id, new Date());
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (!condition() && performance.now() < deadline) await sleep(20);
}

/** One bank transaction through the api; resolves with its id and when the 201 arrived. */
async function postTransaction(ctx: ScenarioContext, i: number): Promise<{ id: string; at: number }> {
  const res = await fetch(`${ctx.fullUrl}/api/v1/guilds/${BENCH_GUILD_ID}/bank/members/${memberId(i % ctx.members)}/transactions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ctx.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'add', amount: 1 }),
  });
  const at = performance.now();
  const { transactionId } = (await res.json()) as { transactionId: number };
  return { id: String(transactionId), at };
}

/** `count` transactions at `rate` per second through the api (open loop); their answers. */
async function paced(ctx: ScenarioContext, count: number, rate: number, offset: number) {
  const started = performance.now();
  const sends = [];
  for (let i = 0; i < count; i++) {
    await sleep(Math.max(0, started + (i * 1000) / rate - performance.now()));
    sends.push(postTransaction(ctx, offset + i));
  }
  return Promise.all(sends);
}

/** Answer -> arrival latencies at one receiver, waiting up to `timeoutMs` for the stragglers. */
async function latencies(answers: Array<{ id: string; at: number }>, arrivals: Map<string, number>, timeoutMs: number) {
  await waitFor(() => answers.every((a) => arrivals.has(a.id)), timeoutMs);
  const delivered = answers.filter((a) => arrivals.has(a.id));
  return { delivered: delivered.length, latencyMs: latencySummary(delivered.map((a) => arrivals.get(a.id)! - a.at)) };
}

/** The stages of those answers' deliveries, on the wall clock the batch histories use. */
function stagesOf(ctx: ScenarioContext, answers: Array<{ id: string; at: number }>, arrivals: Map<string, number>): Promise<WebhookStages> {
  const wall = (ms: number) => performance.timeOrigin + ms;
  const received = new Map([...arrivals].map(([id, at]) => [id, wall(at)]));
  return webhookStages(ctx, new Map(answers.map((a) => [a.id, wall(a.at)])), received);
}

export interface WebhookLatencyResult {
  scenario: 'webhook-latency';
  transactions: number;
  ratePerSecond: number;
  delivered: number;
  /** From the API's 201 to the receiver getting the delivery. */
  latencyMs: LatencySummary;
  stages: WebhookStages;
  burst: { transactions: number; connections: number; seconds: number; delivered: number; latencyMs: LatencySummary; stages: WebhookStages; cpu: CpuUse };
}

const LATENCY_TRANSACTIONS = 200;
const LATENCY_RATE = 10;
const BURST_TRANSACTIONS = 6_000;
const BURST_CONNECTIONS = 50;

/**
 * 200 bank transactions at 10 per second through the api, each timed until its webhook arrives; then a burst
 * of 6,000 (a Pro key at its limit for ten minutes, compressed) sent by 50 connections as fast as they go.
 */
export async function runWebhookLatency(ctx: ScenarioContext): Promise<WebhookLatencyResult> {
  return withReceivers(ctx, [0], async ({ arrivals }) => {
    const steadyAnswers = await paced(ctx, LATENCY_TRANSACTIONS, LATENCY_RATE, 0);
    const steady = await latencies(steadyAnswers, arrivals[0]!, 30_000);
    const answers: Array<{ id: string; at: number }> = [];
    let next = 0;
    const cpuBefore = await cpuSnapshot();
    const started = performance.now();
    const lane = async () => {
      while (next < BURST_TRANSACTIONS) answers.push(await postTransaction(ctx, LATENCY_TRANSACTIONS + next++));
    };
    await Promise.all(Array.from({ length: BURST_CONNECTIONS }, lane));
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const burst = await latencies(answers, arrivals[0]!, 120_000);
    // From the burst's first request to its last delivery: where the machine's cores went meanwhile.
    const cpu = cpuUse(cpuBefore, await cpuSnapshot(), (performance.now() - started) / 1000);
    return {
      scenario: 'webhook-latency',
      transactions: LATENCY_TRANSACTIONS,
      ratePerSecond: LATENCY_RATE,
      ...steady,
      stages: await stagesOf(ctx, steadyAnswers, arrivals[0]!),
      burst: { transactions: BURST_TRANSACTIONS, connections: BURST_CONNECTIONS, seconds, ...burst, stages: await stagesOf(ctx, answers, arrivals[0]!), cpu },
    };
  });
}

export interface WebhookSlowReceiverResult {
  scenario: 'webhook-slow-receiver';
  transactions: number;
  ratePerSecond: number;
  slowAnswerMs: number;
  fast: { delivered: number; latencyMs: LatencySummary };
  slow: { delivered: number; latencyMs: LatencySummary };
}

const SLOW_TRANSACTIONS = 100;
const SLOW_RATE = 5;
const SLOW_ANSWER_MS = 9_000;

/** 100 transactions at 5 per second to two endpoints, one answering after 9 s: the fast one's latency. */
export async function runWebhookSlowReceiver(ctx: ScenarioContext): Promise<WebhookSlowReceiverResult> {
  return withReceivers(ctx, [0, SLOW_ANSWER_MS], async ({ arrivals }) => {
    const answers = await paced(ctx, SLOW_TRANSACTIONS, SLOW_RATE, 20_000);
    const fast = await latencies(answers, arrivals[0]!, 30_000);
    const slow = await latencies(answers, arrivals[1]!, 60_000);
    return { scenario: 'webhook-slow-receiver', transactions: SLOW_TRANSACTIONS, ratePerSecond: SLOW_RATE, slowAnswerMs: SLOW_ANSWER_MS, fast, slow };
  });
}

export interface WebhookThroughputResult {
  scenario: 'webhook-throughput';
  events: number;
  workers: number;
  /** Per endpoint count: deliveries made, expected, duplicated requests, deliveries per second at the receivers. */
  runs: Array<{ endpoints: number; expected: number; delivered: number; duplicates: number; deliveriesPerSecond: number }>;
  /** Filled in by bench/run.ts when temporal-ceiling ran in the same run: deliveries/s over empty workflows/s. */
  ratioToCeiling?: number[];
}

const THROUGHPUT_EVENTS = 5_000;

/** 5,000 committed events whose fan-outs start at once, to one endpoint and then to five: deliveries per second. */
export async function runWebhookThroughput(ctx: ScenarioContext): Promise<WebhookThroughputResult> {
  const runs = [];
  for (const endpoints of [1, 5]) {
    runs.push(
      await withReceivers(ctx, Array.from({ length: endpoints }, () => 0), async ({ arrivals, requests }) => {
        const events = [];
        for (let i = 0; i < THROUGHPUT_EVENTS; i++) {
          const { events: created } = await ctx.db.transaction().execute((trx) =>
            applyBankChange(trx, { guildId: BENCH_GUILD_ID, userId: memberId(i), type: 'add', amount: 1, reason: null, actor: { type: 'api_key', apiKeyId: 0, userId: null }, requestId: 'bench', at: new Date() }),
          );
          events.push(...created);
        }
        const ids = events.map((e) => String(e.data.transactionId));
        const expected = ids.length * endpoints;
        const started = performance.now();
        // As many api requests would: one start per committed event, 100 at a time.
        for (let i = 0; i < events.length; i += 100) {
          await Promise.all(events.slice(i, i + 100).map((e) => startFanouts({ db: ctx.db, temporal: ctx.temporal, clock: systemClock }, [e])));
        }
        const delivered = () => arrivals.reduce((n, a) => n + a.size, 0);
        await waitFor(() => delivered() >= expected, 240_000);
        const last = Math.max(...arrivals.flatMap((a) => [...a.values()]));
        await sleep(1_000); // late duplicates would arrive now
        return { endpoints, expected, delivered: delivered(), duplicates: requests() - delivered(), deliveriesPerSecond: Math.round(delivered() / ((last - started) / 1000)) };
      }),
    );
  }
  return { scenario: 'webhook-throughput', events: THROUGHPUT_EVENTS, workers: ctx.workers, runs };
}
