import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { GiveawayEmbed } from './giveaways.js';

/** The server's Giveaways settings: the look a giveaway's embed starts from, and whether winners get a DM. */
export interface GiveawaySettings {
  look: GiveawayEmbed;
  dmWinners: boolean;
}

export const DEFAULT_GIVEAWAY_SETTINGS: GiveawaySettings = {
  look: { color: '#D94CFF', endedColor: '#4E5058', emoji: '🎉', imageUrl: null, thumbnailUrl: null },
  dmWinners: true,
};

export async function findGiveawaySettings(db: Kysely<Database>, guildId: string): Promise<GiveawaySettings> {
  const row = await db.selectFrom('giveaway_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  if (!row) return DEFAULT_GIVEAWAY_SETTINGS;
  return {
    look: { color: row.color, endedColor: row.ended_color, emoji: row.emoji, imageUrl: row.image_url, thumbnailUrl: row.thumbnail_url },
    dmWinners: row.dm_winners,
  };
}

export async function saveGiveawaySettings(db: Kysely<Database>, guildId: string, s: GiveawaySettings): Promise<void> {
  const values = {
    color: s.look.color,
    ended_color: s.look.endedColor,
    emoji: s.look.emoji,
    image_url: s.look.imageUrl,
    thumbnail_url: s.look.thumbnailUrl,
    dm_winners: s.dmWinners,
  };
  await db
    .insertInto('giveaway_settings')
    .values({ guild_id: guildId, ...values })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
    .execute();
}
