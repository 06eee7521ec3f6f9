import { randomUUID } from 'node:crypto';
import { findLedgerMismatches } from '../../db/bank/accounts.js';
import { BENCH_GUILD_ID, memberId } from '../seed.js';
import { runLoad, type LoadResult } from '../load.js';
import type { ScenarioContext } from './context.js';

export interface BankWriteResult {
  scenario: 'write';
  connections: number;
  durationSeconds: number;
  load: LoadResult;
  /** Accounts whose balance differs from the sum of their ledger after the run (must be 0). */
  ledgerMismatches: number;
}

/** POST bank transactions, each with its own Idempotency-Key, from `connections` concurrent clients. */
export async function runBankWrite(ctx: ScenarioContext): Promise<BankWriteResult> {
  // A small set of hot accounts makes the clients contend for the same rows, as a real payout burst does.
  const hotMembers = Math.min(1_000, ctx.members);
  const load = await runLoad({
    url: ctx.fullUrl,
    method: 'POST',
    connections: ctx.connections,
    durationSeconds: ctx.durationSeconds,
    setupRequest: (req) => ({
      ...req,
      path: `/api/v1/guilds/${BENCH_GUILD_ID}/bank/members/${memberId(Math.floor(Math.random() * hotMembers))}/transactions`,
      headers: {
        Authorization: `Bearer ${ctx.apiKey}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': randomUUID(),
      },
      body: JSON.stringify({ type: 'add', amount: 1 + Math.floor(Math.random() * 100), reason: 'bench' }),
    }),
  });
  const mismatches = await findLedgerMismatches(ctx.db, BENCH_GUILD_ID);
  return { scenario: 'write', connections: ctx.connections, durationSeconds: ctx.durationSeconds, load, ledgerMismatches: mismatches.length };
}
