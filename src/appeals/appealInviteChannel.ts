import type { Kysely } from 'kysely';
import { findAppealSettings } from '../../db/appeals/settings.js';
import type { Database } from '../../db/schema.js';
import type { Platform } from '../core/platform.js';

/**
 * Where an approved appellant's invite leads: the appeal settings' invite channel, else the server's first text
 * channel by position (what a member sees on top); null when the server has no text channel.
 */
export async function appealInviteChannel(db: Kysely<Database>, platform: Platform, guildId: string): Promise<string | null> {
  const settings = await findAppealSettings(db, guildId);
  if (settings.inviteChannelId) return settings.inviteChannelId;
  const texts = (await platform.listChannels(guildId)).filter((c) => c.type === 'text').sort((a, b) => a.position - b.position);
  return texts[0]?.id ?? null;
}
