import type { BankSettings } from '../../db/bank/accounts.js';
import type { BankTransactionEventData } from '../events/eventTypes.js';

/** The line the bot posts in the server's bank log channel for one ledger change. */
export function bankLogMessage(data: BankTransactionEventData, currency: BankSettings['currency']): string {
  const unit = Math.abs(data.amount) === 1 ? currency.name : currency.plural;
  const sign = data.amount >= 0 ? '+' : '-';
  const parts = [
    `${currency.emoji ?? ''}${currency.emoji ? ' ' : ''}${sign}${Math.abs(data.amount).toLocaleString('en-US')} ${unit}`,
    `for <@${data.userId}>`,
    `(${data.type}${data.actorId ? ` by <@${data.actorId}>` : ''})`,
    `balance ${data.balanceAfter.toLocaleString('en-US')}`,
  ];
  return parts.join(' ') + (data.reason ? ` — ${data.reason}` : '') + ` [#${data.transactionId}]`;
}
