import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { NativeConnection } from '@temporalio/worker';
import { sql } from 'kysely';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { bundleWorkflows, createWorker } from '../../process/worker.js';
import { latencySummary, type LatencySummary } from '../latency.js';
import { BENCH_GUILD_ID } from '../seed.js';
import type { ScenarioContext } from './context.js';
import { countGiveawaysSince, openGiveaways, spreadEnds } from './openGiveaways.js';

export interface GiveawaysOpenResult {
  scenario: 'giveaways-open';
  giveaways: number;
  /** The worker's workflow cache: what bounds its memory, however many giveaways are open. */
  maxCachedWorkflows: number;
  /** Giveaways stored and their workflow started per second (16 in flight), and posted by it (active) per second. */
  startRatePerSecond: { started: number; active: number };
  /** Resident memory of the bench process (api, workers and this load generator) in MB: once the worker ran, at most while open, once all were open. */
  rssMb: { workerReady: number; maxWhileOpen: number; allOpen: number };
  /** From a giveaway's endsAt to the creation of its `giveaways.ended` event. */
  endedDelayMs: LatencySummary;
  ended: number;
}

const MAX_CACHED_WORKFLOWS = 100;
const END_SPREAD_S = 120;
/** Starts expected per second at the least: the first giveaway ends only once all of them should be open. */
const MIN_START_RATE = 10;
/** Ends never closer than this to a giveaway's own start, should the starts run slower than MIN_START_RATE. */
const MIN_OPEN_S = 60;

const rssMb = () => Math.round(process.memoryUsage().rss / 1_048_576);

/**
 * `--giveaways` giveaways started at once (stored by the start use case, workflow launched as the api does), each
 * ending over two minutes once all should be open, run by a worker of their own whose cache holds MAX_CACHED_WORKFLOWS runs:
 * how fast they start, whether memory stays flat while they all sleep on their timers (an open giveaway must
 * cost Temporal storage, not worker memory), and how late each `giveaways.ended` comes after its endsAt.
 */
export async function runGiveawaysOpen(ctx: ScenarioContext): Promise<GiveawaysOpenResult> {
  const taskQueue = `bench-giveaways-${randomUUID()}`;
  const connection = await NativeConnection.connect({ address: ctx.temporalAddress });
  const gateway = { client: ctx.temporal.client, taskQueue };
  const worker = await createWorker({
    connection,
    namespace: ctx.temporal.client.options.namespace,
    taskQueue,
    bundle: await bundleWorkflows(),
    deps: { db: ctx.db, platform: createLocalPlatform(ctx.db), clock: systemClock, logger: createLogger('warn', 'bench'), temporal: gateway, webhooks: { allowInsecureLocal: false } },
    maxCachedWorkflows: MAX_CACHED_WORKFLOWS,
  });
  const running = worker.run();
  const count = ctx.giveaways;
  const firstEndS = Math.max(120, Math.ceil(count / MIN_START_RATE) + MIN_OPEN_S);
  const limitMs = (firstEndS + END_SPREAD_S + 300) * 1000;
  const since = new Date(Date.now() - 1000);
  const workerReady = rssMb();
  let maxWhileOpen = workerReady;
  const sampler = setInterval(() => (maxWhileOpen = Math.max(maxWhileOpen, rssMb())), 1000);
  try {
    const t0 = Date.now();
    await openGiveaways(ctx, gateway, count, spreadEnds(t0, count, firstEndS, END_SPREAD_S, MIN_OPEN_S));
    const startedS = (Date.now() - t0) / 1000;
    while ((await countGiveawaysSince(ctx, since, 'posted')) < count && Date.now() - t0 < limitMs) await sleep(500);
    const activeS = (Date.now() - t0) / 1000;
    const allOpen = rssMb();
    while ((await countGiveawaysSince(ctx, since, 'ended')) < count && Date.now() - t0 < limitMs) await sleep(1000);
    const delays = await ctx.db
      .selectFrom('events as e')
      .innerJoin('giveaways as g', (j) => j.onRef('g.guild_id', '=', 'e.guild_id').on(sql<boolean>`g.id = (e.data->>'giveawayId')::int`))
      .select(sql<number>`extract(epoch from (e.created_at - g.ends_at)) * 1000`.as('ms'))
      .where('e.guild_id', '=', BENCH_GUILD_ID)
      .where('e.type', '=', 'giveaways.ended')
      .where('g.created_at', '>=', since)
      .execute();
    const endedDelays = delays.map((d) => Number(d.ms));
    return {
      scenario: 'giveaways-open',
      giveaways: count,
      maxCachedWorkflows: MAX_CACHED_WORKFLOWS,
      startRatePerSecond: { started: Math.round(count / startedS), active: Math.round(count / activeS) },
      rssMb: { workerReady, maxWhileOpen, allOpen },
      endedDelayMs: latencySummary(endedDelays),
      ended: endedDelays.length,
    };
  } finally {
    clearInterval(sampler);
    worker.shutdown();
    await running;
    await connection.close();
  }
}
