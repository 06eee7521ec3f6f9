import type { Kysely } from 'kysely';
import { findGuild, type GuildRecord } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import { AdminError } from './errors.js';

export async function requireGuild(db: Kysely<Database>, id: string): Promise<GuildRecord> {
  const guild = await findGuild(db, id);
  if (!guild) throw new AdminError('GUILD_NOT_FOUND', `Guild ${id} does not exist.`);
  return guild;
}
