import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findEndpoint, listEndpoints, type WebhookEndpoint } from '../../db/webhooks/webhooks.js';

export type { WebhookEndpoint };

/** A server's live webhook endpoints (never their secrets), oldest first. */
export const readEndpoints = (db: Kysely<Database>, guildId: string): Promise<WebhookEndpoint[]> => listEndpoints(db, guildId);

/** One of the server's live endpoints; undefined for another server's or a removed one. */
export const readEndpoint = (db: Kysely<Database>, guildId: string, id: number): Promise<WebhookEndpoint | undefined> => findEndpoint(db, guildId, id);
