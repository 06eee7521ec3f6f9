import type { OutboxEvent } from '../events/eventTypes.js';

/** The body every attempt of a delivery sends, serialised once so that retries are byte-identical. */
export function deliveryBody(event: Pick<OutboxEvent, 'id' | 'type' | 'createdAt' | 'guildId' | 'data'>): string {
  return JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt, guildId: event.guildId, data: event.data });
}

/** The spec's schedule: retries 1 min, 5 min, 30 min, 2 h, 6 h and 24 h after a failure. */
export const RETRY_DELAYS = ['1 minute', '5 minutes', '30 minutes', '2 hours', '6 hours', '24 hours'] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
/** An endpoint failing this long without a success is disabled. */
export const DISABLE_AFTER_MS = 24 * 60 * 60 * 1000;
/** Bytes of a receiver's answer kept in the attempt log. */
export const RESPONSE_EXCERPT_BYTES = 1024;
export const ATTEMPT_TIMEOUT_MS = 10_000;

export const webhookDeliveryWorkflowId = (endpointId: number, eventId: string) => `webhook/${endpointId}/${eventId}`;
