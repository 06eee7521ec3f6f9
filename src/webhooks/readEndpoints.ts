import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findEndpoint, listEndpoints, type WebhookEndpoint } from '../../db/webhooks/webhooks.js';
import { readAttemptsByHour, readEndpointsHealth, type EndpointHealth, type HourOfAttempts } from './readEndpointHealth.js';

export type { WebhookEndpoint };

/** A server's live webhook endpoints (never their secrets), oldest first. */
export const readEndpoints = (db: Kysely<Database>, guildId: string): Promise<WebhookEndpoint[]> => listEndpoints(db, guildId);

/** One of the server's live endpoints; undefined for another server's or a removed one. */
export const readEndpoint = (db: Kysely<Database>, guildId: string, id: number): Promise<WebhookEndpoint | undefined> => findEndpoint(db, guildId, id);

/** The endpoints list: each live endpoint with its health at `now`. */
export async function readEndpointOverview(db: Kysely<Database>, guildId: string, now: Date): Promise<{ endpoints: WebhookEndpoint[]; health: Map<number, EndpointHealth> }> {
  const endpoints = await listEndpoints(db, guildId);
  return { endpoints, health: await readEndpointsHealth(db, endpoints.map((e) => e.id), now) };
}

/** One endpoint's page: the endpoint, its health and its attempts per hour at `now`; undefined for another server's. */
export async function readEndpointDetail(
  db: Kysely<Database>,
  guildId: string,
  id: number,
  now: Date,
): Promise<{ endpoint: WebhookEndpoint; health: EndpointHealth | undefined; hours: HourOfAttempts[] } | undefined> {
  const endpoint = await findEndpoint(db, guildId, id);
  if (!endpoint) return undefined;
  const [health, hours] = await Promise.all([readEndpointsHealth(db, [id], now), readAttemptsByHour(db, id, now)]);
  return { endpoint, health: health.get(id), hours };
}
