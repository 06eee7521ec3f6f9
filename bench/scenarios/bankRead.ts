import { BENCH_GUILD_ID, memberId } from '../seed.js';
import { runLoad, type LoadResult } from '../load.js';
import type { ScenarioContext } from './context.js';

export interface BankReadResult {
  scenario: 'read';
  connections: number;
  durationSeconds: number;
  full: LoadResult;
  bare: LoadResult;
  /** Full chain requests per second divided by the bare route's; the goal is at least 0.5. */
  ratio: number;
}

/** GET balance through the whole middleware chain versus a bare route with the same SQL on the same pool. */
export async function runBankRead(ctx: ScenarioContext): Promise<BankReadResult> {
  const randomMember = () => memberId(Math.floor(Math.random() * ctx.members));
  const measure = (base: string, prefix: string) =>
    runLoad({
      url: base,
      connections: ctx.connections,
      durationSeconds: ctx.durationSeconds,
      headers: { Authorization: `Bearer ${ctx.apiKey}` },
      setupRequest: (req) => ({ ...req, path: `${prefix}/guilds/${BENCH_GUILD_ID}/bank/members/${randomMember()}` }),
    });
  // Alternate and warm both first, so neither side profits from a warmer JIT or pool.
  await measure(ctx.bareUrl, '/bare');
  await measure(ctx.fullUrl, '/api/v1');
  const bare = await measure(ctx.bareUrl, '/bare');
  const full = await measure(ctx.fullUrl, '/api/v1');
  return {
    scenario: 'read',
    connections: ctx.connections,
    durationSeconds: ctx.durationSeconds,
    full,
    bare,
    ratio: Number((full.requestsPerSecond / bare.requestsPerSecond).toFixed(3)),
  };
}
