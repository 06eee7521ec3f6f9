import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { moveBalance } from '../bank/moveBalance.js';
import { AppError } from '../core/errors.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { GiveawayRefusal } from './giveawayRefusal.js';

export interface CostMove {
  guildId: string;
  userId: string;
  giveawayId: number;
  amount: number;
  at: Date;
}

/**
 * An entry cost debited (`giveaway_entry`) or refunded (`giveaway_refund`) through the bank's rules, in the
 * caller's transaction: the account opened at the starting balance on first use (with its own ledger row), the
 * balance checked (INSUFFICIENT_FUNDS, BALANCE_LIMIT), one ledger row and its `bank.transaction` event.
 */
export async function moveEntryCost(trx: Kysely<Database>, m: CostMove, direction: 'debit' | 'refund', why: 'entry' | 'left' | 'cancelled'): Promise<OutboxEvent[]> {
  const debit = direction === 'debit';
  try {
    const moved = await moveBalance(trx, {
      guildId: m.guildId,
      userId: m.userId,
      type: debit ? 'remove' : 'add',
      amount: m.amount,
      ledgerType: debit ? 'giveaway_entry' : 'giveaway_refund',
      reason: debit ? `Giveaway #${m.giveawayId} entry` : `Giveaway #${m.giveawayId} entry refunded (${why})`,
      actorId: null,
      apiKeyId: null,
      at: m.at,
    });
    return moved.events;
  } catch (err) {
    if (err instanceof AppError && (err.code === 'INSUFFICIENT_FUNDS' || err.code === 'BALANCE_LIMIT')) throw new GiveawayRefusal(err.code, err.message);
    throw err;
  }
}
