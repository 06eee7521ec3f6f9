import type { Kysely } from 'kysely';
import { findBankSettings, insertLedgerEntry, lockBalance, openAccount, setBalance, type LedgerEntryInput } from '../../db/bank/accounts.js';
import type { Database } from '../../db/schema.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { nextBalance } from './balanceRules.js';

/** One change of a member's balance, by whatever made it (the API, a purchase, a giveaway entry, a flow). */
export interface BalanceMove {
  guildId: string;
  userId: string;
  type: 'add' | 'remove';
  amount: number;
  /** The ledger row's type: `api`, `shop_purchase`, `giveaway_entry`, `flow`... */
  ledgerType: string;
  reason: string | null;
  actorId: string | null;
  apiKeyId: number | null;
  at: Date;
}

export interface BalanceMoveResult {
  transactionId: number;
  previousBalance: number;
  balance: number;
  events: Array<OutboxEvent<'bank.transaction'>>;
}

/**
 * Every balance change goes through here, in the caller's transaction: the account row locked (a member's first
 * change opens the account at the server's starting balance, with a ledger row of its own), the bank's rules
 * (INSUFFICIENT_FUNDS, BALANCE_LIMIT), one ledger row and its `bank.transaction` event, so every balance stays
 * the sum of its ledger (DESIGN invariant 1).
 */
export async function moveBalance(trx: Kysely<Database>, m: BalanceMove): Promise<BalanceMoveResult> {
  const settings = await findBankSettings(trx, m.guildId);
  const events: Array<OutboxEvent<'bank.transaction'>> = [];
  let previous = await lockBalance(trx, m.guildId, m.userId);
  if (previous === undefined) {
    if ((await openAccount(trx, m.guildId, m.userId, settings.startingBalance, m.at)) && settings.startingBalance > 0) {
      events.push(await recordLedger(trx, ledgerEntry(m, 'starting_balance', settings.startingBalance, settings.startingBalance, null)));
    }
    previous = (await lockBalance(trx, m.guildId, m.userId))!;
  }
  const balance = nextBalance(previous, m, settings.maxBalance);
  await setBalance(trx, m.guildId, m.userId, balance, m.at);
  const event = await recordLedger(trx, ledgerEntry(m, m.ledgerType, m.type === 'add' ? m.amount : -m.amount, balance, m));
  events.push(event);
  return { transactionId: event.data.transactionId, previousBalance: previous, balance, events };
}

function ledgerEntry(m: BalanceMove, type: string, amount: number, balanceAfter: number, by: BalanceMove | null): LedgerEntryInput {
  return {
    guildId: m.guildId,
    userId: m.userId,
    type,
    amount,
    balanceAfter,
    reason: by?.reason ?? null,
    counterpartyId: null,
    actorId: by?.actorId ?? null,
    apiKeyId: by?.apiKeyId ?? null,
    createdAt: m.at,
  };
}

/** One ledger row and its bank.transaction event: every ledger change the service makes is reported. */
export async function recordLedger(trx: Kysely<Database>, entry: LedgerEntryInput): Promise<OutboxEvent<'bank.transaction'>> {
  const transactionId = await insertLedgerEntry(trx, entry);
  return recordEvent(trx, {
    type: 'bank.transaction',
    guildId: entry.guildId,
    createdAt: entry.createdAt,
    data: {
      transactionId,
      userId: entry.userId,
      type: entry.type,
      amount: entry.amount,
      balanceAfter: entry.balanceAfter,
      reason: entry.reason,
      counterpartyId: entry.counterpartyId,
      actorId: entry.actorId,
      createdAt: entry.createdAt.toISOString(),
    },
  });
}
