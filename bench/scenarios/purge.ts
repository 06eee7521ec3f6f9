import { fork } from 'node:child_process';
import { once } from 'node:events';
import { sql } from 'kysely';
import { PURGE_LIMITS } from '../../src/core/retention.js';
import type { RetentionPurgeResult } from '../../src/keys/ids.js';
import type { PurgeCommand } from '../purgeProcess.js';
import { runLoad, type LoadResult } from '../load.js';
import { cpuSnapshot, cpuUse, type CpuUse } from '../machineCpu.js';
import { runPacedLoad } from '../pacedLoad.js';
import { BENCH_GUILD_ID, memberId } from '../seed.js';
import type { ScenarioContext } from './context.js';

/** One paced round: its reads, and where the machine's cores went meanwhile. */
export interface PacedRound {
  load: LoadResult;
  cpu: CpuUse;
}

/** A pair of paced rounds back to back, one without the purge and one while a slice of it runs. */
export interface PurgePair {
  /** Which of the two ran first: the order alternates from pair to pair, so a drift of the machine cancels out. */
  first: 'without' | 'with';
  without: PacedRound;
  with: PacedRound;
  /** Rows the slice purged. */
  purged: number;
}

export interface PurgeResult {
  scenario: 'purge';
  /** Expired rows seeded (`--rows`): the backlog each slice of the purge takes from. */
  expiredRows: number;
  /** Reads at a fixed rate below what the api can answer, as a production api serves them, in alternating pairs. */
  paced: {
    ratePerSecond: number;
    pairs: PurgePair[];
    /** The median of the pairs' p99 without the purge, and with it. */
    medianP99Ms: { without: number; with: number };
    p99ChangePercent: number;
  };
  /** Reads as fast as the api answers (both cores busy before the purge starts), without and then with a slice. */
  saturated: { before: LoadResult; during: LoadResult; p99ChangePercent: number };
  purge: { rows: number; slices: number; sliceSeconds: number; rowsPerSecond: number; limits: { dutyPercent: number; batchRows: number; rowsPerSecond: number } };
  /** The change of the median paced p99 with the purge over without it, in percent (goal < 20 at 10,000,000 rows). */
  p99ChangePercent: number;
}

/**
 * Balance reads beside the retention purge of `--rows` expired audit rows, in production's batches, duty and rate
 * (PURGE_LIMITS unless `--purge-batch`, `--purge-duty`, `--purge-rate`), in a process of its own
 * (bench/purgeProcess.ts) as the worker's activity runs it. First as fast as 10 clients get answers, without and
 * then with the purge; then `--read-rounds` pairs of rounds paced at `--read-rate` (half the saturated rate unless
 * given; bench/pacedLoad.ts), one without the purge and one while a slice of it runs for the round's duration, the
 * order alternating. The goal is read on the paced pairs, as the change between the median p99 of the rounds
 * without and of those with: a single round's p99 on this machine swings by a factor of 3 with nothing purging (a
 * stall of the api or the load generator lands a hundred requests in the tail), so one before and one during said
 * more about when the stalls fell than about the purge. A saturated api's every percentile follows whatever CPU
 * anything else takes, so that figure says what the purge costs, not how the api serves beside it. Each slice goes
 * on from where the last stopped; the backlog is never emptied (the next run tops it up).
 */
export async function runPurge(ctx: ScenarioContext): Promise<PurgeResult> {
  const expiredRows = await seedExpiredAuditRows(ctx);
  await sql`VACUUM ANALYZE audit_log`.execute(ctx.db);
  const headers = { Authorization: `Bearer ${ctx.apiKey}` };
  const pathOf = () => `/api/v1/guilds/${BENCH_GUILD_ID}/bank/members/${memberId(Math.floor(Math.random() * ctx.members))}`;
  const read = (durationSeconds: number) => runLoad({ url: ctx.fullUrl, connections: 10, durationSeconds, headers, setupRequest: (req) => ({ ...req, path: pathOf() }) });
  // Paced rounds also say where the machine's cores went: the api's headroom is what the purge takes from.
  const readPaced = async (ratePerSecond: number): Promise<PacedRound> => {
    const before = await cpuSnapshot();
    const load = await runPacedLoad({ url: ctx.fullUrl, ratePerSecond, durationSeconds: ctx.durationSeconds, headers, pathOf });
    return { load, cpu: cpuUse(before, await cpuSnapshot(), ctx.durationSeconds) };
  };
  const limits = {
    dutyPercent: ctx.purgeDutyPercent ?? PURGE_LIMITS.dutyPercent,
    batchRows: ctx.purgeBatchRows ?? PURGE_LIMITS.batchRows,
    rowsPerSecond: ctx.purgeRowsPerSecond ?? PURGE_LIMITS.rowsPerSecond,
  };
  const purgeProcess = await forkPurgeProcess();
  let purged = 0;
  let slices = 0;
  /** Reads while a slice of the purge runs for the reads' duration; the slice is over when both are. */
  const whilePurging = async <T>(reads: () => Promise<T>): Promise<{ reads: T; purged: number }> => {
    const slice = purgeProcess.run({ databaseUrl: ctx.databaseUrl, kind: 'auditLog', options: { runBudgetMs: ctx.durationSeconds * 1000, ...limits } });
    const [result, outcome] = await Promise.all([reads(), slice]);
    const rows = outcome.purged.auditLog ?? 0;
    if (outcome.complete) console.log('[bench] the backlog ran out during a slice: its reads mix both states (seed more --rows)');
    purged += rows;
    slices += 1;
    return { reads: result, purged: rows };
  };
  try {
    // Unmeasured: the first seconds of a load run on a cold api thread and pool.
    await read(3);
    const saturatedBefore = await read(ctx.durationSeconds);
    const saturatedDuring = (await whilePurging(() => read(ctx.durationSeconds))).reads;
    const ratePerSecond = ctx.readRatePerSecond ?? Math.round(saturatedBefore.requestsPerSecond / 2);
    const pairs: PurgePair[] = [];
    for (let i = 0; i < ctx.readRounds; i++) {
      const first = i % 2 === 0 ? 'without' : 'with';
      const rounds: Partial<Record<'without' | 'with', PacedRound>> = {};
      let rows = 0;
      for (const side of first === 'without' ? (['without', 'with'] as const) : (['with', 'without'] as const)) {
        if (side === 'without') rounds.without = await readPaced(ratePerSecond);
        else ({ reads: rounds.with, purged: rows } = await whilePurging(() => readPaced(ratePerSecond)));
      }
      pairs.push({ first, without: rounds.without!, with: rounds.with!, purged: rows });
    }
    const medianP99Ms = { without: median(pairs.map((p) => p.without.load.latencyMs.p99)), with: median(pairs.map((p) => p.with.load.latencyMs.p99)) };
    const p99ChangePercent = changePercent(medianP99Ms.without, medianP99Ms.with);
    return {
      scenario: 'purge',
      expiredRows,
      paced: { ratePerSecond, pairs, medianP99Ms, p99ChangePercent },
      saturated: { before: saturatedBefore, during: saturatedDuring, p99ChangePercent: changePercent(saturatedBefore.latencyMs.p99, saturatedDuring.latencyMs.p99) },
      purge: { rows: purged, slices, sliceSeconds: ctx.durationSeconds, rowsPerSecond: Math.round(purged / (slices * ctx.durationSeconds)), limits },
      p99ChangePercent,
    };
  } finally {
    purgeProcess.stop();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round(((sorted[mid - 1]! + sorted[mid]!) / 2) * 100) / 100;
};

const changePercent = (before: number, during: number) => Math.round(((during - before) / before) * 1000) / 10;

/** The purge's process, forked and loaded; `run` has it purge one slice and resolves with the slice's result. */
async function forkPurgeProcess(): Promise<{ run(command: PurgeCommand): Promise<RetentionPurgeResult>; stop(): void }> {
  const child = fork(new URL('../purgeProcess.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] });
  // Listened to from the fork on: an exit is never missed, before a result (a failure) or between slices.
  const exited = once(child, 'exit').then(([code]) => Promise.reject(new Error(`The purge's process ended (${String(code)}) without a result.`)));
  exited.catch(() => {});
  await Promise.race([once(child, 'message'), exited]);
  return {
    async run(command) {
      child.send(command);
      const [result] = (await Promise.race([once(child, 'message'), exited])) as [RetentionPurgeResult];
      return result;
    },
    stop: () => child.disconnect(),
  };
}

/** `--rows` audit rows of the bench server a year past its retention (a million per statement; a purged run seeds again). */
async function seedExpiredAuditRows(ctx: ScenarioContext): Promise<number> {
  const expired = new Date(Date.now() - 800 * 86_400_000);
  const { rows: [row] } = await sql<{ n: number }>`select count(*)::int as n from audit_log where guild_id = ${BENCH_GUILD_ID} and action = 'bench.expired'`.execute(ctx.db);
  const started = performance.now();
  for (let from = row!.n; from < ctx.leaderboardRows; from += 1_000_000) {
    const to = Math.min(ctx.leaderboardRows, from + 1_000_000) - 1;
    await sql`
      INSERT INTO audit_log (guild_id, actor_type, action, target_type, target_id, data, created_at)
      SELECT ${BENCH_GUILD_ID}, 'system', 'bench.expired', 'member', i::text, '{"reason":"bench"}', ${expired}::timestamptz + i * interval '1 ms'
      FROM generate_series(${from}::bigint, ${to}::bigint) AS i`.execute(ctx.db);
  }
  console.log(`[bench] ${ctx.leaderboardRows.toLocaleString('en-US')} expired audit rows ready in ${Math.round(performance.now() - started)} ms`);
  return ctx.leaderboardRows;
}
