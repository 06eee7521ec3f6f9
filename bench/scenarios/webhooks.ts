import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { markEndpointRemoved } from '../../db/webhooks/webhooks.js';
import { applyBankChange } from '../../src/bank/applyBankChange.js';
import { systemClock } from '../../src/core/clock.js';
import { startFanouts } from '../../src/events/outbox.js';
import { addEndpoint } from '../../src/webhooks/endpointManagement.js';
import { BENCH_GUILD_ID, memberId } from '../seed.js';
import type { ScenarioContext } from './context.js';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** A receiver on loopback that notes when each transaction's event arrived; an endpoint of the bench guild points at it. */
async function withReceiver<T>(ctx: ScenarioContext, run: (arrivals: Map<string, number>) => Promise<T>): Promise<T> {
  const arrivals = new Map<string, number>();
  const server = createServer({ keepAlive: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { transactionId: number } };
      arrivals.set(String(data.transactionId), performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const endpoint = await addEndpoint(
    { db: ctx.db, clock: systemClock, actor: { type: 'system' }, allowInsecureLocal: true },
    { guildId: BENCH_GUILD_ID, url, events: ['bank.transaction'] },
  );
  try {
    return await run(arrivals);
  } finally {
    await markEndpointRemoved(ctx.db, endpoint.id, new Date());
    server.closeAllConnections();
    server.close();
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (!condition() && performance.now() < deadline) await sleep(20);
}

export interface WebhookLatencyResult {
  scenario: 'webhook-latency';
  transactions: number;
  ratePerSecond: number;
  delivered: number;
  /** From the API's 201 to the receiver getting the delivery. */
  latencyMs: { p50: number; p99: number; max: number };
}

const LATENCY_TRANSACTIONS = 200;
const LATENCY_RATE = 10;

/** 200 bank transactions at 10 per second through the api, each timed until its webhook arrives. */
export async function runWebhookLatency(ctx: ScenarioContext): Promise<WebhookLatencyResult> {
  return withReceiver(ctx, async (arrivals) => {
    const answered = new Map<string, number>();
    const started = performance.now();
    const sends: Array<Promise<void>> = [];
    for (let i = 0; i < LATENCY_TRANSACTIONS; i++) {
      await sleep(Math.max(0, started + (i * 1000) / LATENCY_RATE - performance.now()));
      sends.push(
        (async () => {
          const res = await fetch(`${ctx.fullUrl}/api/v1/guilds/${BENCH_GUILD_ID}/bank/members/${memberId(i)}/transactions`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${ctx.apiKey}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ type: 'add', amount: 1 }),
          });
          const at = performance.now();
          const { transactionId } = (await res.json()) as { transactionId: number };
          answered.set(String(transactionId), at);
        })(),
      );
    }
    await Promise.all(sends);
    await waitFor(() => [...answered.keys()].every((id) => arrivals.has(id)), 30_000);
    const latencies = [...answered].filter(([id]) => arrivals.has(id)).map(([id, at]) => arrivals.get(id)! - at).sort((a, b) => a - b);
    return {
      scenario: 'webhook-latency',
      transactions: LATENCY_TRANSACTIONS,
      ratePerSecond: LATENCY_RATE,
      delivered: latencies.length,
      latencyMs: { p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)), max: Math.round(latencies.at(-1) ?? 0) },
    };
  });
}

export interface WebhookThroughputResult {
  scenario: 'webhook-throughput';
  events: number;
  delivered: number;
  workers: number;
  deliveriesPerSecond: number;
}

const THROUGHPUT_EVENTS = 2_000;

/** 2,000 committed events whose fan-outs start at once; deliveries per second at the receiver (`--workers` workers). */
export async function runWebhookThroughput(ctx: ScenarioContext): Promise<WebhookThroughputResult> {
  return withReceiver(ctx, async (arrivals) => {
    const events = [];
    for (let i = 0; i < THROUGHPUT_EVENTS; i++) {
      const { events: created } = await ctx.db.transaction().execute((trx) =>
        applyBankChange(trx, { guildId: BENCH_GUILD_ID, userId: memberId(i), type: 'add', amount: 1, reason: null, apiKeyId: 0, actorId: null, requestId: 'bench', at: new Date() }),
      );
      events.push(...created);
    }
    const ids = new Set(events.map((e) => String(e.data.transactionId)));
    const started = performance.now();
    for (let i = 0; i < events.length; i += 100) {
      await Promise.all(events.slice(i, i + 100).map((e) => startFanouts({ db: ctx.db, temporal: ctx.temporal, clock: systemClock }, [e])));
    }
    await waitFor(() => [...ids].every((id) => arrivals.has(id)), 120_000);
    const times = [...ids].filter((id) => arrivals.has(id)).map((id) => arrivals.get(id)!);
    const seconds = (Math.max(...times) - started) / 1000;
    return {
      scenario: 'webhook-throughput',
      events: THROUGHPUT_EVENTS,
      delivered: times.length,
      workers: ctx.workers,
      deliveriesPerSecond: Math.round(times.length / seconds),
    };
  });
}
