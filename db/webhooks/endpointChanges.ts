import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { ENDPOINT_COLUMNS, toEndpoint, type WebhookEndpoint } from './webhooks.js';

/** An endpoint's edited fields; its secret, state and deliveries are left as they are. */
export async function updateEndpointFields(
  db: Kysely<Database>,
  id: number,
  fields: { url: string; events: string[]; description: string | null },
): Promise<WebhookEndpoint> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set({ url: fields.url, events: fields.events, description: fields.description })
    .where('id', '=', id)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toEndpoint(row);
}
