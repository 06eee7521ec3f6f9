import type { Kysely } from 'kysely';
import { upsertPlatformChannels, upsertPlatformRoles } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import type { Feature } from '../../src/core/features.js';
import { snowflake } from '../harness/fixtures.js';
import { managedGuild } from './consoleClient.js';

/**
 * A managed server on the local platform with what a ticket panel names: a text channel, an announcement
 * channel, a category and a staff role (besides the fixture's Managers role).
 */
export async function ticketGuild(db: Kysely<Database>) {
  const guild = await managedGuild(db, 'Ticket Guild');
  const ids = { general: snowflake(), news: snowflake(), voice: snowflake(), category: snowflake(), staffRole: snowflake() };
  await upsertPlatformChannels(db, guild.id, [
    { channelId: ids.category, name: 'Support', type: 'category', position: 0 },
    { channelId: ids.general, name: 'general', type: 'text', position: 1 },
    { channelId: ids.news, name: 'news', type: 'announcement', position: 2 },
    { channelId: ids.voice, name: 'Lounge', type: 'voice', position: 3 },
  ]);
  await upsertPlatformRoles(db, guild.id, [{ roleId: ids.staffRole, name: 'Staff', position: 1 }]);
  return { ...guild, ...ids };
}

/** Turns a feature off for the server, as `guild update --features` would leave it. */
export async function featureOff(db: Kysely<Database>, guildId: string, feature: Feature): Promise<void> {
  const { features } = await db.selectFrom('guilds').select('features').where('id', '=', guildId).executeTakeFirstOrThrow();
  await db.updateTable('guilds').set({ features: features.filter((f) => f !== feature) }).where('id', '=', guildId).execute();
}
