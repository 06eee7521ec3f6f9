import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Records a posted message once per idempotency key; returns the message id either way. */
export async function insertPlatformMessage(
  db: Kysely<Database>,
  m: { guildId: string; channelId: string; content: string; idempotencyKey: string },
): Promise<string> {
  await db
    .insertInto('platform_messages')
    .values({ guild_id: m.guildId, channel_id: m.channelId, content: m.content, idempotency_key: m.idempotencyKey })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  const row = await db
    .selectFrom('platform_messages')
    .select('id')
    .where('idempotency_key', '=', m.idempotencyKey)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

/** Replaces a message's content; false when the message is not in that channel (deleted, or never posted). */
export async function editPlatformMessage(
  db: Kysely<Database>,
  m: { guildId: string; channelId: string; messageId: string; content: string },
): Promise<boolean> {
  if (!/^\d{1,15}$/.test(m.messageId)) return false;
  const result = await db
    .updateTable('platform_messages')
    .set({ content: m.content, edited_at: new Date() })
    .where('id', '=', Number(m.messageId))
    .where('guild_id', '=', m.guildId)
    .where('channel_id', '=', m.channelId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export const listPlatformMessages = (db: Kysely<Database>, guildId: string, channelId: string) =>
  db
    .selectFrom('platform_messages')
    .select(['id', 'content', 'idempotency_key', 'created_at', 'edited_at'])
    .where('guild_id', '=', guildId)
    .where('channel_id', '=', channelId)
    .orderBy('id')
    .execute();
