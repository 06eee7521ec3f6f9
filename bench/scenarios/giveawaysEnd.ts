import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { bundleWorkflows } from '../../process/worker.js';
import type { GiveawayWorkerArgs, GiveawayWorkerMessage, WorkerMemory } from '../giveawayWorker.js';
import { latencySummary, type LatencySummary } from '../latency.js';
import { BENCH_GUILD_ID } from '../seed.js';
import type { ScenarioContext } from './context.js';
import { countGiveawaysSince, openGiveaways, spreadEnds } from './openGiveaways.js';

export interface GiveawaysEndResult {
  scenario: 'giveaways-end';
  giveaways: number;
  /** The worker's workflow cache (its process runs nothing else). */
  maxCachedWorkflows: number;
  /** The worker loads a bundle written beforehand (WORKFLOW_BUNDLE_PATH), as production should, rather than run webpack. */
  workflowBundle: 'prebuilt';
  /** Seconds over which the ends are spread. */
  endSpreadSeconds: number;
  /** Resident memory of the worker's own process in MB: once polling, at most while all were open (before the first end), at most overall. */
  workerRssMb: { ready: number; maxWhileOpen: number; max: number };
  /** The worker's V8 heap in use (MB) at the same moments: what of the RSS is the main thread's JavaScript objects. */
  workerHeapMb: { ready: number; maxWhileOpen: number; max: number };
  /** The main thread's memory outside its V8 heap (buffers, MB) at the same moments. */
  workerExternalMb: { ready: number; maxWhileOpen: number; max: number };
  /** The V8 and malloc settings the worker process ran with (as docs/deployment.md sets them). */
  workerSettings: { nodeFlags: string[]; env: Record<string, string> };
  /** How late after its endsAt each part of an end happened, and the end as a whole (the last of the three). */
  latenessMs: { draw: LatencySummary; postEdited: LatencySummary; event: LatencySummary; end: LatencySummary };
  /** Giveaways whose end was complete (drawn, post edited, event written) when the scenario stopped waiting. */
  ended: number;
}

const MAX_CACHED_WORKFLOWS = 100;
/** The worker's default (TEMPORAL_MAX_CONCURRENT_ACTIVITIES) and its heap cap, as docs/deployment.md sets them. */
const MAX_CONCURRENT_ACTIVITIES = 20;
/**
 * The worker's V8 heap capped (old space) and its young generation small (each isolate, the main thread's and the
 * workflow thread's, otherwise keeps up to 3 x 16 MB of semi-spaces), and glibc's malloc arenas capped at 2 (its
 * default is 8 per core, one per thread that allocates): about 60 MB less resident at ready (docs/performance.md,
 * "Worker memory").
 */
const WORKER_SETTINGS = { nodeFlags: ['--max-old-space-size=256', '--max-semi-space-size=2'], env: { MALLOC_ARENA_MAX: '2' } };
const END_SPREAD_S = 120;
/** The first end comes once all should be open at this many starts per second, and never before this many seconds. */
const MIN_START_RATE = 10;
const MIN_FIRST_END_S = 60;
const MIN_OPEN_S = 30;
/** Waiting for the last ends stops this long after the last endsAt. */
const GRACE_S = 300;

/**
 * `--giveaways` giveaways (1,000 by default; the size is 10,000) opened as the api does, whose ends are spread
 * over two minutes, run by a worker in a process of its own: how late each end's draw, post edit and
 * `giveaways.ended` event come after its endsAt, and the worker process's resident memory.
 */
export async function runGiveawaysEnd(ctx: ScenarioContext): Promise<GiveawaysEndResult> {
  const taskQueue = `bench-giveaways-end-${randomUUID()}`;
  const count = ctx.giveaways;
  let open = true;
  const peaks = { rssMb: peak(), heapMb: peak(), externalMb: peak() };
  const bundleDir = await mkdtemp(join(tmpdir(), 'bench-workflows-'));
  const workflowBundlePath = join(bundleDir, 'workflows.js');
  await writeFile(workflowBundlePath, (await bundleWorkflows()).code);
  const worker = await forkWorker(
    {
      databaseUrl: ctx.databaseUrl,
      temporalAddress: ctx.temporalAddress,
      namespace: ctx.temporal.client.options.namespace,
      taskQueue,
      maxCachedWorkflows: MAX_CACHED_WORKFLOWS,
      maxConcurrentActivities: MAX_CONCURRENT_ACTIVITIES,
      workflowBundlePath,
    },
    (m) => {
      for (const key of Object.keys(peaks) as Array<keyof WorkerMemory>) {
        peaks[key].max = Math.max(peaks[key].max, m[key]);
        if (open) peaks[key].maxWhileOpen = Math.max(peaks[key].maxWhileOpen, m[key]);
      }
    },
  );
  for (const key of Object.keys(peaks) as Array<keyof WorkerMemory>) peaks[key].ready = worker.ready[key];
  try {
    const since = new Date(Date.now() - 1000);
    const t0 = Date.now();
    const firstEndS = Math.max(MIN_FIRST_END_S, Math.ceil(count / MIN_START_RATE));
    await openGiveaways(ctx, { client: ctx.temporal.client, taskQueue }, count, spreadEnds(t0, count, firstEndS, END_SPREAD_S, MIN_OPEN_S));
    const firstEnd = await ctx.db
      .selectFrom('giveaways')
      .select((eb) => eb.fn.min('ends_at').as('at'))
      .where('guild_id', '=', BENCH_GUILD_ID)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    await sleep(Math.max(0, new Date(firstEnd.at as Date).getTime() - Date.now()));
    open = false;
    const deadline = t0 + (firstEndS + END_SPREAD_S + GRACE_S) * 1000;
    while ((await countGiveawaysSince(ctx, since, 'ended')) < count && Date.now() < deadline) await sleep(1000);
    // The last edits and events follow the status by a moment.
    await sleep(2000);
    return { scenario: 'giveaways-end', giveaways: count, maxCachedWorkflows: MAX_CACHED_WORKFLOWS, workflowBundle: 'prebuilt', endSpreadSeconds: END_SPREAD_S, workerRssMb: peaks.rssMb, workerHeapMb: peaks.heapMb, workerExternalMb: peaks.externalMb, workerSettings: WORKER_SETTINGS, ...(await lateness(ctx, since)) };
  } finally {
    await worker.stop();
    await rm(bundleDir, { recursive: true, force: true });
  }
}

/** Each bench giveaway's draw, edit of its post and ended event, in ms after its endsAt (null when not done). */
async function lateness(ctx: ScenarioContext, since: Date): Promise<Pick<GiveawaysEndResult, 'latenessMs' | 'ended'>> {
  const { rows } = await sql<{ draw: number | null; edited: number | null; event: number | null }>`
    select
      (select extract(epoch from (d.drawn_at - g.ends_at)) * 1000 from giveaway_draws d
        where d.guild_id = g.guild_id and d.giveaway_id = g.id and d.draw_number = 1) as draw,
      (select extract(epoch from (max(a.done_at) - g.ends_at)) * 1000 from giveaway_actions a
        where a.guild_id = g.guild_id and a.giveaway_id = g.id and a.type = 'edit' and a.draw_number = 1 and a.status = 'done') as edited,
      (select extract(epoch from (min(e.created_at) - g.ends_at)) * 1000 from events e
        where e.guild_id = g.guild_id and e.type = 'giveaways.ended' and (e.data->>'giveawayId')::int = g.id) as event
    from giveaways g
    where g.guild_id = ${BENCH_GUILD_ID} and g.created_at >= ${since}`.execute(ctx.db);
  const present = (values: Array<number | null>) => values.filter((v): v is number => v !== null).map(Number);
  const complete = rows.filter((r) => r.draw !== null && r.edited !== null && r.event !== null);
  return {
    latenessMs: {
      draw: latencySummary(present(rows.map((r) => r.draw))),
      postEdited: latencySummary(present(rows.map((r) => r.edited))),
      event: latencySummary(present(rows.map((r) => r.event))),
      end: latencySummary(complete.map((r) => Math.max(Number(r.draw), Number(r.edited), Number(r.event)))),
    },
    ended: complete.length,
  };
}

const peak = () => ({ ready: 0, maxWhileOpen: 0, max: 0 });

interface ForkedWorker {
  ready: WorkerMemory;
  stop(): Promise<void>;
}

/** Starts bench/giveawayWorker.ts in a child process (with tsx) and resolves once it polls. */
async function forkWorker(args: GiveawayWorkerArgs, onMemory: (m: WorkerMemory) => void): Promise<ForkedWorker> {
  const child: ChildProcess = fork(new URL('../giveawayWorker.ts', import.meta.url), [JSON.stringify(args)], {
    execArgv: ['--import', 'tsx', ...WORKER_SETTINGS.nodeFlags],
    env: { ...process.env, ...WORKER_SETTINGS.env },
  });
  const ready = await new Promise<WorkerMemory>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the giveaway worker exited with ${code} before it was ready`)));
    child.on('message', (message: GiveawayWorkerMessage) => {
      onMemory(message);
      if (message.type === 'ready') resolve(message);
    });
  });
  return {
    ready,
    stop: async () => {
      child.removeAllListeners('exit');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}
