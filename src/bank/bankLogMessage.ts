import type { BankSettings } from '../../db/bank/accounts.js';
import type { StoredEvent } from '../../db/shared/events.js';
import type { Platform } from '../core/platform.js';
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

/**
 * Posts a bank.transaction event's line in the log channel, once: the event id is the post's idempotency key, so
 * the per-event and the batched paths (and their retries) never post it twice.
 */
export async function postBankLogLine(platform: Platform, settings: BankSettings, logChannelId: string, event: StoredEvent): Promise<void> {
  const content = bankLogMessage(event.data as BankTransactionEventData, settings.currency);
  await platform.postMessage(event.guildId, logChannelId, content, `bank-log/${event.id}`);
}
