import type { Kysely } from 'kysely';
import { findApiKey, listApiKeys, type ApiKeyRecord } from '../../db/keys/apiKeys.js';
import type { Database } from '../../db/schema.js';

export type { ApiKeyRecord };

/** A server's API keys (never the keys themselves), oldest first. */
export const readKeys = (db: Kysely<Database>, guildId: string): Promise<ApiKeyRecord[]> => listApiKeys(db, guildId);

/** One of the server's keys; undefined for another server's. */
export const readKey = (db: Kysely<Database>, guildId: string, id: number): Promise<ApiKeyRecord | undefined> => findApiKey(db, guildId, id);
