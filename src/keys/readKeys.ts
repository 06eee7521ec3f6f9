import type { Kysely } from 'kysely';
import { findApiKey, findKeysLastUse, listApiKeys, type ApiKeyRecord } from '../../db/keys/apiKeys.js';
import type { Database } from '../../db/schema.js';

export type { ApiKeyRecord };

export interface KeyView extends ApiKeyRecord {
  /** The minute of its last use, from the rate-limit windows (null: not used since the service keeps it). */
  lastUsedAt: Date | null;
}

/** A server's API keys (never the keys themselves), oldest first, with their last use. */
export async function readKeys(db: Kysely<Database>, guildId: string): Promise<KeyView[]> {
  const [keys, lastUse] = await Promise.all([listApiKeys(db, guildId), findKeysLastUse(db, guildId)]);
  return keys.map((k) => ({ ...k, lastUsedAt: lastUse.get(k.id) ?? null }));
}

/** One of the server's keys; undefined for another server's. */
export const readKey = (db: Kysely<Database>, guildId: string, id: number): Promise<ApiKeyRecord | undefined> => findApiKey(db, guildId, id);
