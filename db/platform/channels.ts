import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { platformChannelRow } from './local.js';

/**
 * A ticket's text channel, its id derived from the idempotency key (a 19-digit number, like a snowflake), so a
 * repeat with the same key finds the channel made the first time instead of making another.
 */
export async function createPlatformTicketChannel(
  db: Kysely<Database>,
  c: { guildId: string; name: string; parentId: string | null; idempotencyKey: string },
): Promise<string> {
  const digest = BigInt(`0x${createHash('sha256').update(`${c.guildId}:${c.idempotencyKey}`).digest('hex').slice(0, 15)}`);
  const channelId = String((1n << 60n) | digest);
  await db
    .insertInto('platform_channels')
    .values(platformChannelRow(c.guildId, { channelId, name: c.name, type: 'text', parentId: c.parentId, position: 0 }))
    .onConflict((oc) => oc.columns(['guild_id', 'channel_id']).doNothing())
    .execute();
  return channelId;
}

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
