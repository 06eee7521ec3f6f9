import { BENCH_GUILD_ID, memberId } from '../seed.js';
import { runLoad, type LoadResult } from '../load.js';
import type { ScenarioContext } from './context.js';

type SideLoad = LoadResult & {
  /** CPU time (µs) of the api thread per request answered. */
  apiThreadCpuUsPerRequest: number;
};

export interface ReadRound {
  /** Which side ran first in this round (the order alternates from round to round). */
  first: 'bare' | 'full';
  full: SideLoad;
  bare: SideLoad;
  /** Full chain requests per second over the bare route's, in this round. */
  ratio: number;
  /** The bare route's api-thread CPU per request over the full chain's. */
  cpuRatio: number;
}

export interface BankReadResult {
  scenario: 'read';
  connections: number;
  durationSeconds: number;
  rounds: ReadRound[];
  /** The median round's ratio (goal: at least 0.85, issue 40), with the spread of all rounds. */
  ratio: number;
  ratioSpread: { min: number; max: number };
  /**
   * The median of the rounds' CPU ratios, with their spread. Throughput follows the cores the api thread gets beside
   * the load generator and PostgreSQL (on two cores, +-30 % from one second to the next); CPU time per request leaves
   * out the time the thread waited for a core, though it still varies with the load (fewer requests per wakeup).
   */
  cpuRatio: number;
  cpuRatioSpread: { min: number; max: number };
  /** The median round's loads, for the printed table. */
  full: SideLoad;
  bare: SideLoad;
}

/**
 * GET balance through the whole middleware chain versus a bare route with the same SQL on the same pool, in
 * `--read-rounds` rounds that alternate which side goes first: the bare side varies from run to run on a shared
 * machine, so one pair of loads says little; the median of the rounds' ratios and its spread say more.
 */
export async function runBankRead(ctx: ScenarioContext): Promise<BankReadResult> {
  const randomMember = () => memberId(Math.floor(Math.random() * ctx.members));
  const measure = async (base: string, prefix: string, durationSeconds = ctx.durationSeconds): Promise<SideLoad> => {
    const cpuBefore = await ctx.apiThreadCpuMs();
    const load = await runLoad({
      url: base,
      connections: ctx.connections,
      durationSeconds,
      headers: { Authorization: `Bearer ${ctx.apiKey}` },
      setupRequest: (req) => ({ ...req, path: `${prefix}/guilds/${BENCH_GUILD_ID}/bank/members/${randomMember()}` }),
    });
    const cpuMs = (await ctx.apiThreadCpuMs()) - cpuBefore;
    return { ...load, apiThreadCpuUsPerRequest: Math.round((cpuMs * 1000) / Math.max(1, load.requests)) };
  };
  const bareSide = (seconds?: number) => measure(ctx.bareUrl, '/bare', seconds);
  const fullSide = (seconds?: number) => measure(ctx.fullUrl, '/api/v1', seconds);
  // Warm both first, so neither side profits from a warmer JIT, pool or plan cache.
  await bareSide(Math.min(3, ctx.durationSeconds));
  await fullSide(Math.min(3, ctx.durationSeconds));
  const rounds: ReadRound[] = [];
  for (let i = 0; i < ctx.readRounds; i++) {
    const first = i % 2 === 0 ? 'bare' : 'full';
    const a = first === 'bare' ? await bareSide() : await fullSide();
    const b = first === 'bare' ? await fullSide() : await bareSide();
    const [bare, full] = first === 'bare' ? [a, b] : [b, a];
    rounds.push({
      first,
      full,
      bare,
      ratio: Number((full.requestsPerSecond / bare.requestsPerSecond).toFixed(3)),
      cpuRatio: Number((bare.apiThreadCpuUsPerRequest / full.apiThreadCpuUsPerRequest).toFixed(3)),
    });
  }
  const byRatio = [...rounds].sort((x, y) => x.ratio - y.ratio);
  const median = byRatio[Math.floor((byRatio.length - 1) / 2)]!;
  const byCpu = rounds.map((r) => r.cpuRatio).sort((x, y) => x - y);
  return {
    scenario: 'read',
    connections: ctx.connections,
    durationSeconds: ctx.durationSeconds,
    rounds,
    ratio: median.ratio,
    ratioSpread: { min: byRatio[0]!.ratio, max: byRatio.at(-1)!.ratio },
    cpuRatio: byCpu[Math.floor((byCpu.length - 1) / 2)]!,
    cpuRatioSpread: { min: byCpu[0]!, max: byCpu.at(-1)! },
    full: median.full,
    bare: median.bare,
  };
}
