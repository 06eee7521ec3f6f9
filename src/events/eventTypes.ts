import type { z } from 'zod';
import { EVENT_DATA_SCHEMAS } from './contract.js';

/** Event kinds of the spec (Events) plus the console's test event; their data schemas live in the contract. */
export const EVENT_TYPES = Object.keys(EVENT_DATA_SCHEMAS) as Array<keyof typeof EVENT_DATA_SCHEMAS>;

export type EventType = (typeof EVENT_TYPES)[number];

export type EventDataByType = { [K in EventType]: z.infer<(typeof EVENT_DATA_SCHEMAS)[K]> };

export type BankTransactionEventData = EventDataByType['bank.transaction'];
export type WebhookTestEventData = EventDataByType['webhook.test'];

export interface OutboxEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  guildId: string;
  createdAt: string;
  data: EventDataByType[T];
}
