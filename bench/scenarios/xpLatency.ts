import { setTimeout as sleep } from 'node:timers/promises';
import { latencySummary, type LatencySummary } from '../latency.js';
import { cpuSnapshot, cpuUse, type CpuUse } from '../machineCpu.js';
import { BENCH_GUILD_ID, memberId } from '../seed.js';
import type { ScenarioContext } from './context.js';

export interface XpLatencyResult {
  scenario: 'xp-latency';
  changes: number;
  targetRatePerSecond: number;
  /** Changes posted per second (the sending loop), and done per second (the last one's end included). */
  achievedRatePerSecond: number;
  completedRatePerSecond: number;
  /** Polls sent at once at most, whatever the backlog. */
  maxPollsInFlight: number;
  pollIntervalMs: number;
  /** From sending the POST to the first poll that saw `done`. */
  postToDoneMs: LatencySummary;
  failed: number;
  /** POSTs answered otherwise than 202 (a 503 under load): nothing to poll, left out of the latencies. */
  rejected: number;
  /** Status polls sent, all changes together (each a describe on Temporal, or a read of the record). */
  polls: number;
  /** `--topology prod`: CPU time (ms) per accepted change of each process (api, worker-N, load) over the run. */
  cpuMsPerChange?: Record<string, number>;
  /** Where the machine's cores went from the first POST to the last change done. */
  cpu: CpuUse;
}

const CHANGES = 1_000;
const POLL_INTERVAL_MS = 25;

/**
 * Every 25 ms for the first second (where the goal is), then 100 ms, then 500 ms after 5 s: polling every change
 * every 25 ms however late it is turned a backlog into thousands of polls per second, which deepened the backlog.
 */
const pollIntervalMs = (elapsedMs: number) => (elapsedMs < 1000 ? POLL_INTERVAL_MS : elapsedMs < 5000 ? 100 : 500);
/**
 * A poll of a change older than 5 s is a status read the api answers from Temporal (describe), a younger one from
 * its record: unbounded, a backlog of hundreds of changes polled together loaded the dev server until the changes
 * themselves stalled (5.6 done per second at 20/s). A real client's polls are its own business; the bench's must
 * not be what saturates the machine.
 */
const MAX_POLLS_IN_FLIGHT = 16;

/**
 * 1,000 XP changes posted at a steady `--rate` per second (10 by default; the goal is stated at 20), open loop,
 * each polled until it is done (every 25 ms for its first second, less often after). On the 2-core reference machine the api, worker, Temporal dev
 * server, PostgreSQL and this load generator share the cores.
 */
export async function runXpLatency(ctx: ScenarioContext): Promise<XpLatencyResult> {
  const headers = { Authorization: `Bearer ${ctx.apiKey}`, 'Content-Type': 'application/json' };
  const base = `${ctx.fullUrl}/api/v1/guilds/${BENCH_GUILD_ID}/levels`;
  const cpuBefore = await ctx.processCpuMs?.();
  const machineBefore = await cpuSnapshot();
  const started = performance.now();
  let failed = 0;
  let rejected = 0;
  let pollsInFlight = 0;
  let polls = 0;
  const pollSlotFreed: Array<() => void> = [];
  async function poll(changeId: string): Promise<string> {
    while (pollsInFlight >= MAX_POLLS_IN_FLIGHT) await new Promise<void>((resolve) => pollSlotFreed.push(resolve));
    pollsInFlight++;
    polls++;
    try {
      const res = await fetch(`${base}/xp-changes/${changeId}`, { headers });
      return ((await res.json()) as { status: string }).status;
    } finally {
      pollsInFlight--;
      pollSlotFreed.shift()?.();
    }
  }

  async function one(i: number): Promise<number | undefined> {
    const sentAt = performance.now();
    const res = await fetch(`${base}/members/${memberId(i % ctx.members)}/xp-changes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'add', amount: 50 }),
    });
    // Polling a change that was never accepted would never end.
    if (res.status !== 202) {
      rejected++;
      await res.body?.cancel();
      return undefined;
    }
    const { changeId } = (await res.json()) as { changeId: string };
    for (;;) {
      const status = await poll(changeId);
      if (status === 'done' || status === 'failed') {
        if (status === 'failed') failed++;
        return performance.now() - sentAt;
      }
      await sleep(pollIntervalMs(performance.now() - sentAt));
    }
  }

  const runs: Array<Promise<number | undefined>> = [];
  for (let i = 0; i < CHANGES; i++) {
    // Open loop: the i-th change is sent at i / rate seconds, whatever the earlier ones are doing.
    const due = started + (i * 1000) / ctx.xpRatePerSecond;
    await sleep(Math.max(0, due - performance.now()));
    runs.push(one(i));
  }
  const sendSeconds = (performance.now() - started) / 1000;
  const latencies = (await Promise.all(runs)).filter((ms) => ms !== undefined);
  const allDoneSeconds = (performance.now() - started) / 1000;
  const cpu = cpuUse(machineBefore, await cpuSnapshot(), allDoneSeconds);
  const cpuAfter = await ctx.processCpuMs?.();
  const cpuMsPerChange =
    cpuBefore && cpuAfter
      ? Object.fromEntries(Object.entries(cpuAfter).map(([name, ms]) => [name, Number(((ms - (cpuBefore[name] ?? 0)) / Math.max(1, CHANGES - rejected)).toFixed(2))]))
      : undefined;
  return {
    scenario: 'xp-latency',
    changes: CHANGES,
    targetRatePerSecond: ctx.xpRatePerSecond,
    achievedRatePerSecond: Number((CHANGES / sendSeconds).toFixed(1)),
    completedRatePerSecond: Number((CHANGES / allDoneSeconds).toFixed(1)),
    maxPollsInFlight: MAX_POLLS_IN_FLIGHT,
    pollIntervalMs: POLL_INTERVAL_MS,
    postToDoneMs: latencySummary(latencies),
    failed,
    rejected,
    polls,
    cpuMsPerChange,
    cpu,
  };
}
