import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Records a ticket channel deleted or a thread archived, once per channel (a repeat with any key is a no-op).
 * Returns whether this call closed it.
 */
export async function closePlatformChannel(
  db: Kysely<Database>,
  c: { guildId: string; channelId: string; thread: boolean; idempotencyKey: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('platform_closed_channels')
    .values({ guild_id: c.guildId, channel_id: c.channelId, thread: c.thread, idempotency_key: c.idempotencyKey })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export const findClosedPlatformChannel = (db: Kysely<Database>, guildId: string, channelId: string) =>
  db
    .selectFrom('platform_closed_channels')
    .select(['thread', 'idempotency_key', 'created_at'])
    .where('guild_id', '=', guildId)
    .where('channel_id', '=', channelId)
    .executeTakeFirst();
