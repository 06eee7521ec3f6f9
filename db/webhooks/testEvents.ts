import type { Kysely } from 'kysely';
import { newEventId, type StoredEvent } from '../shared/events.js';
import type { Database } from '../schema.js';
import { deliveryBody } from './deliveryBody.js';

/**
 * A console test event: recorded as `webhook.test` (so no bank log, flow or other endpoint ever takes it for a real
 * change), with its one delivery to the endpoint written in the same statement. The delivery's body is what the
 * receiver gets: `delivered`, the test itself or an example of another type, under the event's id.
 */
export async function insertTestEvent(
  trx: Kysely<Database>,
  e: { guildId: string; endpointId: number; createdAt: Date; data: unknown; delivered: { type: string; data: unknown } },
): Promise<StoredEvent> {
  const stored: StoredEvent = { id: newEventId(), type: 'webhook.test', guildId: e.guildId, createdAt: e.createdAt.toISOString(), data: e.data };
  const body = deliveryBody({ ...stored, type: e.delivered.type, data: e.delivered.data });
  await trx
    .with('event', (db) =>
      db.insertInto('events').values({ id: stored.id, guild_id: e.guildId, type: stored.type, data: JSON.stringify(e.data), created_at: e.createdAt }),
    )
    .insertInto('webhook_deliveries')
    .values({ endpoint_id: e.endpointId, event_id: stored.id, body, status: 'pending', completed_at: null, retry_requested_at: null })
    .execute();
  return stored;
}
