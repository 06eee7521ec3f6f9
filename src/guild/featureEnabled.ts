import type { Kysely } from 'kysely';
import { findGuild, type GuildRecord } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import type { Feature } from '../core/features.js';

/** Whether the server has the feature on now; a server the service does not know has none. */
export async function isFeatureEnabled(db: Kysely<Database>, guildId: string, feature: Feature): Promise<boolean> {
  const guild = await findGuild(db, guildId);
  return guild?.features.includes(feature) ?? false;
}

/**
 * The server's record, for use cases that act on what it has on (the bot's message batches); undefined for a
 * server the service does not know (the bot sits in it, nobody registered it).
 */
export async function knownGuild(db: Kysely<Database>, guildId: string): Promise<GuildRecord | undefined> {
  return findGuild(db, guildId);
}
