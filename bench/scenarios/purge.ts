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

export interface PurgeResult {
  scenario: 'purge';
  /** Expired rows seeded and then purged (`--rows`). */
  expiredRows: number;
  /** Reads at a fixed rate below what the api can answer, as a production api serves them. */
  paced: { ratePerSecond: number; before: LoadResult; during: LoadResult; p99ChangePercent: number; cpuBefore: CpuUse; cpuDuring: CpuUse };
  /** Reads as fast as the api answers (both cores busy before the purge starts). */
  saturated: { before: LoadResult; during: LoadResult; p99ChangePercent: number };
  purge: { rows: number; seconds: number; batches: number; complete: boolean; dutyPercent: number; batchRows: number };
  /** The paced reads' p99 during the purge over before, in percent of change (goal < 20 at 10,000,000 rows). */
  p99ChangePercent: number;
}

/**
 * Balance reads, first as fast as 10 clients get answers, then paced at `--read-rate` (half the saturated rate unless
 * given; bench/pacedLoad.ts), each for the scenario's duration; then the same two again, paced first, while the
 * retention purge deletes `--rows` audit rows past the bench server's retention in its production batches
 * (PURGE_LIMITS.batchRows unless `--purge-batch`, one statement each) in a process of its own
 * (bench/purgeProcess.ts), as the worker's activity would; the purge gets all the time it needs. The goal is read on the paced rounds: a saturated api's every
 * percentile follows whatever CPU anything else takes, so that figure says what the purge costs, not how the api
 * serves beside it.
 */
export async function runPurge(ctx: ScenarioContext): Promise<PurgeResult> {
  const expiredRows = await seedExpiredAuditRows(ctx);
  await sql`VACUUM ANALYZE audit_log`.execute(ctx.db);
  const headers = { Authorization: `Bearer ${ctx.apiKey}` };
  const pathOf = () => `/api/v1/guilds/${BENCH_GUILD_ID}/bank/members/${memberId(Math.floor(Math.random() * ctx.members))}`;
  const read = (durationSeconds: number) => runLoad({ url: ctx.fullUrl, connections: 10, durationSeconds, headers, setupRequest: (req) => ({ ...req, path: pathOf() }) });
  // Paced rounds also say where the machine's cores went: the api's headroom is what the purge takes from.
  const readPaced = async (ratePerSecond: number) => {
    const before = await cpuSnapshot();
    const load = await runPacedLoad({ url: ctx.fullUrl, ratePerSecond, durationSeconds: ctx.durationSeconds, headers, pathOf });
    return { load, cpu: cpuUse(before, await cpuSnapshot(), ctx.durationSeconds) };
  };
  const purgeProcess = await forkPurgeProcess();
  // Unmeasured: the first seconds of a load run on a cold api thread and pool.
  await read(3);
  const saturatedBefore = await read(ctx.durationSeconds);
  const ratePerSecond = ctx.readRatePerSecond ?? Math.round(saturatedBefore.requestsPerSecond / 2);
  const pacedBefore = await readPaced(ratePerSecond);
  const started = performance.now();
  let purgeDone = false;
  const dutyPercent = ctx.purgeDutyPercent ?? PURGE_LIMITS.dutyPercent;
  const batchRows = ctx.purgeBatchRows ?? PURGE_LIMITS.batchRows;
  const purging = purgeProcess.start({ databaseUrl: ctx.databaseUrl, options: { runBudgetMs: 24 * 3_600_000, batchRows, dutyPercent } }).finally(() => {
    purgeDone = true;
  });
  const pacedDuring = await readPaced(ratePerSecond);
  const saturatedDuring = await read(ctx.durationSeconds);
  if (purgeDone) console.log('[bench] the purge ended before the reads did: "during" mixes both states');
  const outcome = await purging;
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const paced = {
    ratePerSecond,
    before: pacedBefore.load,
    during: pacedDuring.load,
    p99ChangePercent: changePercent(pacedBefore.load, pacedDuring.load),
    cpuBefore: pacedBefore.cpu,
    cpuDuring: pacedDuring.cpu,
  };
  return {
    scenario: 'purge',
    expiredRows,
    paced,
    saturated: { before: saturatedBefore, during: saturatedDuring, p99ChangePercent: changePercent(saturatedBefore, saturatedDuring) },
    purge: { rows: outcome.purged.auditLog ?? 0, seconds, batches: outcome.batches, complete: outcome.complete, dutyPercent, batchRows },
    p99ChangePercent: paced.p99ChangePercent,
  };
}

const changePercent = (before: LoadResult, during: LoadResult) => Math.round(((during.latencyMs.p99 - before.latencyMs.p99) / before.latencyMs.p99) * 1000) / 10;

/** The purge's process, forked and loaded; `start` runs the purge there and resolves with its result. */
async function forkPurgeProcess(): Promise<{ start(command: PurgeCommand): Promise<RetentionPurgeResult> }> {
  const child = fork(new URL('../purgeProcess.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] });
  // Listened to from the fork on: an exit is never missed, before a result (a failure) or after it.
  const exit = once(child, 'exit');
  const exited = exit.then(([code]) => Promise.reject(new Error(`The purge's process ended (${String(code)}) without a result.`)));
  await Promise.race([once(child, 'message'), exited]);
  return {
    async start(command) {
      child.send(command);
      const [result] = (await Promise.race([once(child, 'message'), exited])) as [RetentionPurgeResult];
      await exit;
      return result;
    },
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
