import type { StoredEvent } from '../../db/shared/events.js';

/** The body every attempt of a delivery sends, serialised once so that retries are byte-identical. */
export function deliveryBody(event: Pick<StoredEvent, 'id' | 'type' | 'createdAt' | 'guildId' | 'data'>): string {
  return JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt, guildId: event.guildId, data: event.data });
}

/** An endpoint failing this long without a success is disabled. */
export const DISABLE_AFTER_MS = 24 * 60 * 60 * 1000;
/** Bytes of a receiver's answer kept in the attempt log. */
export const RESPONSE_EXCERPT_BYTES = 1024;
export const ATTEMPT_TIMEOUT_MS = 10_000;
