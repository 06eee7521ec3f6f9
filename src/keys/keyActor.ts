import type { Kysely } from 'kysely';
import { findApiKey, type ApiKeyRecord } from '../../db/keys/apiKeys.js';
import type { Database } from '../../db/schema.js';

/**
 * The API key an operation was asked with and the member it acts for: the key's creator, whose permissions a
 * moderation action is checked against and whom its case names as moderator. No key when none was used (an
 * operator's or the bot's own operation) or it is gone; `actsFor` null when the key has no creator (made by the
 * operator CLI).
 */
export async function keyActor(db: Kysely<Database>, guildId: string, apiKeyId: number | null): Promise<{ key: ApiKeyRecord | undefined; actsFor: string | null }> {
  const key = apiKeyId === null ? undefined : await findApiKey(db, guildId, apiKeyId);
  return { key, actsFor: key?.createdBy ?? null };
}
