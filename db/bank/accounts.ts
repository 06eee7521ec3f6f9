import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface BankSettings {
  currency: { name: string; plural: string; emoji: string | null };
  startingBalance: number;
  maxBalance: number | null;
  logChannelId: string | null;
}

export const DEFAULT_BANK_SETTINGS: BankSettings = {
  currency: { name: 'coin', plural: 'coins', emoji: '🪙' },
  startingBalance: 0,
  maxBalance: null,
  logChannelId: null,
};

export async function findBankSettings(db: Kysely<Database>, guildId: string): Promise<BankSettings> {
  const row = await db.selectFrom('bank_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  if (!row) return DEFAULT_BANK_SETTINGS;
  return {
    currency: { name: row.currency_name, plural: row.currency_plural, emoji: row.currency_emoji },
    startingBalance: row.starting_balance,
    maxBalance: row.max_balance,
    logChannelId: row.log_channel_id,
  };
}

export async function saveBankSettings(db: Kysely<Database>, guildId: string, s: BankSettings): Promise<void> {
  const values = {
    currency_name: s.currency.name,
    currency_plural: s.currency.plural,
    currency_emoji: s.currency.emoji,
    starting_balance: s.startingBalance,
    max_balance: s.maxBalance,
    log_channel_id: s.logChannelId,
  };
  await db
    .insertInto('bank_settings')
    .values({ guild_id: guildId, ...values })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
    .execute();
}

export async function findBalance(db: Kysely<Database>, guildId: string, userId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('bank_accounts')
    .select('balance')
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.balance;
}

/** Locks the account row for the rest of the transaction; undefined when the member has no account yet. */
export async function lockBalance(trx: Kysely<Database>, guildId: string, userId: string): Promise<number | undefined> {
  const row = await trx
    .selectFrom('bank_accounts')
    .select('balance')
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  return row?.balance;
}

/** Creates the account unless a concurrent transaction did; the caller locks it next. */
export async function openAccount(trx: Kysely<Database>, guildId: string, userId: string, balance: number, at: Date): Promise<boolean> {
  const result = await trx
    .insertInto('bank_accounts')
    .values({ guild_id: guildId, user_id: userId, balance, updated_at: at })
    .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function setBalance(trx: Kysely<Database>, guildId: string, userId: string, balance: number, at: Date): Promise<void> {
  await trx
    .updateTable('bank_accounts')
    .set({ balance, updated_at: at })
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .execute();
}

export interface LedgerEntryInput {
  guildId: string;
  userId: string;
  type: string;
  amount: number;
  balanceAfter: number;
  reason: string | null;
  counterpartyId: string | null;
  actorId: string | null;
  apiKeyId: number | null;
  createdAt: Date;
}

export async function insertLedgerEntry(trx: Kysely<Database>, e: LedgerEntryInput): Promise<number> {
  const row = await trx
    .insertInto('bank_ledger')
    .values({
      guild_id: e.guildId,
      user_id: e.userId,
      type: e.type,
      amount: e.amount,
      balance_after: e.balanceAfter,
      reason: e.reason,
      counterparty_id: e.counterpartyId,
      actor_id: e.actorId,
      api_key_id: e.apiKeyId,
      created_at: e.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface LedgerRow {
  id: number;
  type: string;
  amount: number;
  balanceAfter: number;
  reason: string | null;
  counterpartyId: string | null;
  createdAt: Date;
}

/** Newest first by id, so a page never shifts when new rows arrive (keyset on `before`). */
export async function listLedger(
  db: Kysely<Database>,
  guildId: string,
  userId: string,
  page: { limit: number; before?: number },
): Promise<LedgerRow[]> {
  let query = db
    .selectFrom('bank_ledger')
    .select(['id', 'type', 'amount', 'balance_after', 'reason', 'counterparty_id', 'created_at'])
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId);
  if (page.before !== undefined) query = query.where('id', '<', page.before);
  const rows = await query.orderBy('id', 'desc').limit(page.limit).execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    amount: r.amount,
    balanceAfter: r.balance_after,
    reason: r.reason,
    counterpartyId: r.counterparty_id,
    createdAt: r.created_at,
  }));
}

/** Highest balance first; ties by user id so the order never changes between identical reads. */
export async function listTopBalances(
  db: Kysely<Database>,
  guildId: string,
  limit: number,
  /** Keyset: only accounts ranked after this one (the last row of the previous page). */
  after?: { balance: number; userId: string },
): Promise<Array<{ userId: string; balance: number }>> {
  let query = db.selectFrom('bank_accounts').select(['user_id', 'balance']).where('guild_id', '=', guildId);
  if (after) {
    query = query.where((eb) => eb.or([eb('balance', '<', after.balance), eb.and([eb('balance', '=', after.balance), eb('user_id', '>', after.userId)])]));
  }
  const rows = await query.orderBy('balance', 'desc').orderBy('user_id').limit(limit).execute();
  return rows.map((r) => ({ userId: r.user_id, balance: r.balance }));
}

/** Accounts whose balance differs from the sum of their ledger (should always be empty). */
export async function findLedgerMismatches(db: Kysely<Database>, guildId: string) {
  return db
    .selectFrom('bank_accounts as a')
    .leftJoin('bank_ledger as l', (join) => join.onRef('l.guild_id', '=', 'a.guild_id').onRef('l.user_id', '=', 'a.user_id'))
    .select(['a.user_id', 'a.balance', sql<string>`coalesce(sum(l.amount), 0)`.as('ledger_sum')])
    .where('a.guild_id', '=', guildId)
    .groupBy(['a.user_id', 'a.balance'])
    .having(sql`coalesce(sum(l.amount), 0)`, '!=', sql.ref('a.balance'))
    .execute();
}
