import type { Kysely } from 'kysely';
import { findAppealSettings, type AppealSettings } from '../../db/appeals/settings.js';
import type { Database } from '../../db/schema.js';

/** The appeal settings a decision applies (the rejection DM, the re-appeal wait), for the console's confirmation. */
export function readAppealSettings(db: Kysely<Database>, guildId: string): Promise<AppealSettings> {
  return findAppealSettings(db, guildId);
}
