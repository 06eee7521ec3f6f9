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

export const listPlatformMessages = (db: Kysely<Database>, guildId: string, channelId: string) =>
  db
    .selectFrom('platform_messages')
    .select(['id', 'content', 'idempotency_key', 'created_at'])
    .where('guild_id', '=', guildId)
    .where('channel_id', '=', channelId)
    .orderBy('id')
    .execute();
