/** Event kinds of the spec (Events) plus the console's test event. */
export const EVENT_TYPES = [
  'bank.transaction',
  'levels.levelUp',
  'shop.purchase',
  'shop.refund',
  'tickets.opened',
  'tickets.closed',
  'members.joined',
  'members.left',
  'giveaways.ended',
  'moderation.caseCreated',
  'applications.submitted',
  'appeals.submitted',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** `data` of bank.transaction, exactly the spec's fields. */
export interface BankTransactionEventData {
  transactionId: number;
  userId: string;
  type: string;
  /** Signed: negative is a debit. */
  amount: number;
  balanceAfter: number;
  reason: string | null;
  counterpartyId: string | null;
  actorId: string | null;
  createdAt: string;
}

/** `data` of levels.levelUp, exactly the spec's fields. */
export interface LevelUpEventData {
  userId: string;
  level: number;
  previousLevel: number;
  source: 'activity' | 'admin';
}

/** `data` of webhook.test: sent to one endpoint by an operator. */
export interface WebhookTestEventData {
  endpointId: number;
  message: string;
}

export interface EventDataByType {
  'bank.transaction': BankTransactionEventData;
  'webhook.test': WebhookTestEventData;
  'levels.levelUp': LevelUpEventData;
}

export interface OutboxEvent<T extends keyof EventDataByType = keyof EventDataByType> {
  id: string;
  type: T;
  guildId: string;
  createdAt: string;
  data: EventDataByType[T];
}
