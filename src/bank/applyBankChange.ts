import type { Kysely } from 'kysely';
import { writeAudit } from '../../db/shared/audit.js';
import type { Database } from '../../db/schema.js';
import type { BankChangeBody } from './contract.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { moveBalance } from './moveBalance.js';

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

/** Applies an API bank change inside the caller's transaction: the balance moved (ledger row, event) and its audit row. */
export async function applyBankChange(
  trx: Kysely<Database>,
  input: BankChangeInput,
): Promise<{ change: BankChangeBody; events: Array<OutboxEvent<'bank.transaction'>> }> {
  const { guildId, userId, at } = input;
  const moved = await moveBalance(trx, { ...input, ledgerType: 'api' });
  await writeAudit(trx, {
    guildId,
    actor: { type: 'api_key', apiKeyId: input.apiKeyId, userId: input.actorId },
    action: 'bank.transaction',
    target: { type: 'member', id: userId },
    requestId: input.requestId,
    data: { transactionId: moved.transactionId, type: input.type, amount: input.amount, reason: input.reason },
  });
  return {
    change: {
      transactionId: moved.transactionId,
      userId,
      type: input.type,
      amount: input.amount,
      previousBalance: moved.previousBalance,
      balance: moved.balance,
      createdAt: at.toISOString(),
    },
    events: moved.events,
  };
}
