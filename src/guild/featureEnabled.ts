import type { Kysely } from 'kysely';
import { findGuild } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import type { Feature } from '../core/features.js';

/** Whether the server has the feature on now; a server the service does not know has none. */
export async function isFeatureEnabled(db: Kysely<Database>, guildId: string, feature: Feature): Promise<boolean> {
  const guild = await findGuild(db, guildId);
  return guild?.features.includes(feature) ?? false;
}
