import type { Kysely } from 'kysely';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
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
  /**
   * Who changed it: an API key (the key's creator reported as the event's actorId) or a manager in the console
   * (the manager's user id).
   */
  actor: Extract<AuditActor, { type: 'api_key' } | { type: 'console_user' }>;
  requestId: string;
  at: Date;
}

/**
 * The ledger type of a change: `api` through the API (spec: BankChange), and the spec's staff types `admin_add` /
 * `admin_remove` for a manager's change in the console, so the ledger, the event and the bank log tell them apart.
 */
const ledgerTypeOf = (input: BankChangeInput) => (input.actor.type === 'api_key' ? 'api' : `admin_${input.type}`);

/**
 * Applies a staff bank change (the API's POST .../transactions, the console's adjustment) inside the caller's
 * transaction: the balance moved (ledger row with who made it, event) and its audit row.
 */
export async function applyBankChange(
  trx: Kysely<Database>,
  input: BankChangeInput,
): Promise<{ change: BankChangeBody; events: Array<OutboxEvent<'bank.transaction'>> }> {
  const { guildId, userId, at, actor } = input;
  const moved = await moveBalance(trx, {
    ...input,
    ledgerType: ledgerTypeOf(input),
    actorId: actor.userId,
    apiKeyId: actor.type === 'api_key' ? actor.apiKeyId : null,
  });
  await writeAudit(trx, {
    guildId,
    actor,
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
