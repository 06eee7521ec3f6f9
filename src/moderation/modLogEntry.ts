import type { Kysely } from 'kysely';
import { findCase } from '../../db/moderation/cases.js';
import { findModerationSettings } from '../../db/moderation/settings.js';
import type { Database } from '../../db/schema.js';
import type { ComposedMessage } from '../core/platform.js';
import { modLogMessage } from './modLogMessage.js';

/** Where and what the case posts to the server's mod log (its card); undefined when the server keeps none or the case is gone. */
export async function modLogEntry(db: Kysely<Database>, guildId: string, caseNumber: number): Promise<{ channelId: string; message: ComposedMessage } | undefined> {
  const settings = await findModerationSettings(db, guildId);
  const found = await findCase(db, guildId, caseNumber);
  if (!settings.logChannelId || !found) return undefined;
  return { channelId: settings.logChannelId, message: modLogMessage(found) };
}
