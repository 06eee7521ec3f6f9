import type { Kysely } from 'kysely';
import { writeAudit } from '../../db/shared/audit.js';
import { findBankSettings, insertLedgerEntry, lockBalance, openAccount, setBalance, type LedgerEntryInput } from '../../db/bank/accounts.js';
import { recordEvent } from '../events/outbox.js';
import type { Database } from '../../db/schema.js';
import type { BankChangeBody } from './contract.js';
import { nextBalance } from './balanceRules.js';
import type { OutboxEvent } from '../events/eventTypes.js';

export interface BankChangeInput {
  guildId: string;
  userId: string;
  type: 'add' | 'remove';
  amount: number;
  reason: string | null;
  apiKeyId: number;
  /** The key's creator, reported as actorId in the event. */
  actorId: string | null;
  requestId: string;
  at: Date;
}

/**
 * Applies an API bank change inside the caller's transaction: account row locked, ledger row, event and
 * audit row together (DESIGN invariant 1). A member's first change opens the account at the server's
 * starting balance with a ledger row of its own, so every balance equals the sum of its ledger.
 */
export async function applyBankChange(
  trx: Kysely<Database>,
  input: BankChangeInput,
): Promise<{ change: BankChangeBody; events: Array<OutboxEvent<'bank.transaction'>> }> {
  const { guildId, userId, at } = input;
  const settings = await findBankSettings(trx, guildId);
  const events: Array<OutboxEvent<'bank.transaction'>> = [];

  let previous = await lockBalance(trx, guildId, userId);
  if (previous === undefined) {
    if ((await openAccount(trx, guildId, userId, settings.startingBalance, at)) && settings.startingBalance > 0) {
      events.push(
        await recordLedger(trx, {
          guildId,
          userId,
          type: 'starting_balance',
          amount: settings.startingBalance,
          balanceAfter: settings.startingBalance,
          reason: null,
          counterpartyId: null,
          actorId: null,
          apiKeyId: null,
          createdAt: at,
        }),
      );
    }
    previous = (await lockBalance(trx, guildId, userId))!;
  }

  const balance = nextBalance(previous, input, settings.maxBalance);
  await setBalance(trx, guildId, userId, balance, at);
  const signed = input.type === 'add' ? input.amount : -input.amount;
  const event = await recordLedger(trx, {
    guildId,
    userId,
    type: 'api',
    amount: signed,
    balanceAfter: balance,
    reason: input.reason,
    counterpartyId: null,
    actorId: input.actorId,
    apiKeyId: input.apiKeyId,
    createdAt: at,
  });
  events.push(event);
  const transactionId = event.data.transactionId;
  await writeAudit(trx, {
    guildId,
    actor: { type: 'api_key', apiKeyId: input.apiKeyId, userId: input.actorId },
    action: 'bank.transaction',
    target: { type: 'member', id: userId },
    requestId: input.requestId,
    data: { transactionId, type: input.type, amount: input.amount, reason: input.reason },
  });
  return {
    change: {
      transactionId,
      userId,
      type: input.type,
      amount: input.amount,
      previousBalance: previous,
      balance,
      createdAt: at.toISOString(),
    },
    events,
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
