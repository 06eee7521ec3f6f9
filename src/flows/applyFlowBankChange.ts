import type { Kysely } from 'kysely';
import { claimFlowEffect, storeFlowEffect } from '../../db/flows/effects.js';
import type { Database } from '../../db/schema.js';
import { writeAudit } from '../../db/shared/audit.js';
import { moveBalance } from '../bank/moveBalance.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import type { BankParamsValue } from './effectParams.js';

export interface FlowEffectRef {
  guildId: string;
  executionId: number;
  nodeId: string;
}

export interface FlowBankResult {
  transactionId: number;
  previousBalance: number;
  balance: number;
}

/**
 * A bank transaction node, in the caller's transaction: ledger type `flow`, the bank.transaction event and the
 * audit row, once per run and node (a retried activity gets the first result back). Refusals are the bank's
 * own (INSUFFICIENT_FUNDS, BALANCE_LIMIT) and roll everything back.
 */
export async function applyFlowBankChange(
  trx: Kysely<Database>,
  ref: FlowEffectRef,
  p: BankParamsValue,
  at: Date,
): Promise<{ result: FlowBankResult; events: OutboxEvent[] }> {
  const done = await claimFlowEffect(trx, ref.executionId, ref.nodeId);
  if (done !== undefined) return { result: done as FlowBankResult, events: [] };
  const moved = await moveBalance(trx, {
    guildId: ref.guildId,
    userId: p.userId,
    type: p.action,
    amount: p.amount,
    ledgerType: 'flow',
    reason: p.reason,
    actorId: null,
    apiKeyId: null,
    at,
  });
  const result: FlowBankResult = { transactionId: moved.transactionId, previousBalance: moved.previousBalance, balance: moved.balance };
  await storeFlowEffect(trx, ref.executionId, ref.nodeId, result);
  await writeAudit(trx, {
    guildId: ref.guildId,
    actor: { type: 'system' },
    action: 'bank.transaction',
    target: { type: 'member', id: p.userId },
    data: { ...result, type: p.action, amount: p.amount, reason: p.reason, flowRun: ref.executionId, node: ref.nodeId },
  });
  return { result, events: moved.events };
}
