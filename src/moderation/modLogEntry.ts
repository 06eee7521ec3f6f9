import type { Kysely } from 'kysely';
import { findCase, type ModCaseRecord } from '../../db/moderation/cases.js';
import { findModerationSettings } from '../../db/moderation/settings.js';
import type { Database } from '../../db/schema.js';

/** A case as one line of the mod log: number, action, member, moderator and the reason when there is one. */
const modLogLine = (c: Pick<ModCaseRecord, 'number' | 'action' | 'userId' | 'moderatorId' | 'reason'>): string =>
  `Case #${c.number} | ${c.action} | <@${c.userId}> | by <@${c.moderatorId}>${c.reason ? ` | ${c.reason}` : ''}`;

/** Where and what the case posts to the server's mod log; undefined when the server keeps none or the case is gone. */
export async function modLogEntry(db: Kysely<Database>, guildId: string, caseNumber: number): Promise<{ channelId: string; line: string } | undefined> {
  const settings = await findModerationSettings(db, guildId);
  const found = await findCase(db, guildId, caseNumber);
  if (!settings.logChannelId || !found) return undefined;
  return { channelId: settings.logChannelId, line: modLogLine(found) };
}
