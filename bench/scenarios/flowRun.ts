import { setTimeout as sleep } from 'node:timers/promises';
import type { FlowDefinitionInput } from '../../src/flows/definition.js';
import { createFlow } from '../../src/flows/manageFlows.js';
import { latencySummary, type LatencySummary } from '../latency.js';
import { BENCH_GUILD_ID } from '../seed.js';
import type { ScenarioContext } from './context.js';

export interface FlowRunResult {
  scenario: 'flow-run';
  runs: number;
  targetRatePerSecond: number;
  achievedRatePerSecond: number;
  /** From sending POST runs with wait=true to its 200 (the run ended). */
  requestTo200Ms: LatencySummary;
  /** Answers other than 200 with status success (202 when a wait ran out, errors). */
  notSuccess: number;
}

const RUNS = 300;
/** As xp-latency: on the 2-core machine everything (api, worker, Temporal dev server, PostgreSQL, load) shares the cores. */
const RATE_PER_SECOND = 10;
/** Bound on the scenario whatever happens: the open loop sends for RUNS / RATE s, then waits at most this. */
const DRAIN_MS = 60_000;

/** Three nodes after the trigger: build data, branch on it, build the answer. */
const threeNodeFlow = (): FlowDefinitionInput => ({
  name: 'Bench: double it',
  timeoutSeconds: 30,
  nodes: [
    { id: 'start', type: 'trigger', trigger: { kind: 'manual' }, next: 'double' },
    { id: 'double', type: 'set', values: { value: '=trigger.n * 2' }, next: 'big' },
    { id: 'big', type: 'if', condition: '=nodes.double.value > 10', next: { true: 'yes', false: 'no' } },
    { id: 'yes', type: 'set', values: { size: 'big', value: '=nodes.double.value' } },
    { id: 'no', type: 'set', values: { size: 'small', value: '=nodes.double.value' } },
  ],
});

/**
 * POST runs with wait=true of a three-node flow (set, if, set: each expression evaluated in a local activity),
 * 300 runs at a steady 10 per second (open loop): latency from the request to its 200 and the rate achieved.
 */
export async function runFlowRun(ctx: ScenarioContext): Promise<FlowRunResult> {
  // The bench database may serve several runs a day: the quota of the bench server starts afresh.
  await ctx.db.deleteFrom('flow_run_quotas').where('guild_id', '=', BENCH_GUILD_ID).execute();
  const { flow } = await ctx.db
    .transaction()
    .execute((trx) => createFlow(trx, { guildId: BENCH_GUILD_ID, definition: threeNodeFlow(), enabled: true, actor: { type: 'system' }, at: new Date() }));
  const url = `${ctx.fullUrl}/api/v1/guilds/${BENCH_GUILD_ID}/flows/${flow.id}/runs`;
  const headers = { Authorization: `Bearer ${ctx.apiKey}`, 'Content-Type': 'application/json' };
  let notSuccess = 0;

  async function one(i: number): Promise<number> {
    const sentAt = performance.now();
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ input: { n: i % 10 }, wait: true, timeoutSeconds: 30 }), signal: AbortSignal.timeout(DRAIN_MS) });
    const body = (await res.json()) as { status?: string };
    if (res.status !== 200 || body.status !== 'success') notSuccess++;
    return performance.now() - sentAt;
  }

  const started = performance.now();
  const runs: Array<Promise<number>> = [];
  for (let i = 0; i < RUNS; i++) {
    const due = started + (i * 1000) / RATE_PER_SECOND;
    await sleep(Math.max(0, due - performance.now()));
    runs.push(one(i).catch(() => (notSuccess++, DRAIN_MS)));
  }
  const sendSeconds = (performance.now() - started) / 1000;
  const latencies = await Promise.all(runs);
  return {
    scenario: 'flow-run',
    runs: RUNS,
    targetRatePerSecond: RATE_PER_SECOND,
    achievedRatePerSecond: Number((RUNS / sendSeconds).toFixed(1)),
    requestTo200Ms: latencySummary(latencies),
    notSuccess,
  };
}
