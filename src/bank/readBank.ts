import type { Kysely } from 'kysely';
import { findBalance, findBankSettings, listLedger, listTopBalances } from '../../db/bank/accounts.js';
import type { Database } from '../../db/schema.js';
import { cursorPage } from '../core/cursorPage.js';
import type { z } from '../core/zod.js';
import type { BankBalance, BankLeaderboard, BankTransactionPage, BankTransactionsQuery } from './contract.js';

/** A member's balance; one without an account has the server's starting balance. */
export async function readBalance(db: Kysely<Database>, guildId: string, userId: string): Promise<z.infer<typeof BankBalance>> {
  const [balance, settings] = await Promise.all([findBalance(db, guildId, userId), findBankSettings(db, guildId)]);
  return { userId, balance: balance ?? settings.startingBalance, currency: settings.currency };
}

/** One page of a member's ledger, newest first. */
export async function readLedgerPage(
  db: Kysely<Database>,
  guildId: string,
  userId: string,
  query: z.output<typeof BankTransactionsQuery>,
): Promise<z.infer<typeof BankTransactionPage>> {
  const page = await cursorPage(query.limit, (limit) => listLedger(db, guildId, userId, { limit, before: query.before }), (r) => r.id);
  return { items: page.items.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), nextCursor: page.nextCursor };
}

/** The richest members first, ties by user id. */
export async function readBankLeaderboard(db: Kysely<Database>, guildId: string, limit: number): Promise<z.infer<typeof BankLeaderboard>> {
  const [rows, settings] = await Promise.all([listTopBalances(db, guildId, limit), findBankSettings(db, guildId)]);
  return { items: rows.map((r, i) => ({ rank: i + 1, ...r })), currency: settings.currency };
}
