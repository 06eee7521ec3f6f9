import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A button as the local platform records it under a message. */
export interface PlatformButtonRow {
  id: string;
  label: string;
}

/**
 * Posts a message once per idempotency key, in one statement with the guild's outage switch (the local platform's
 * `reachable`): the message's id (the first post's for a key posted before), or undefined when the guild is
 * unreachable and nothing was posted. One statement, not a look-up, an insert and a read: every bank log line of a
 * burst of transactions is one (activities/events.ts), in the pool the webhooks' first attempts wait for.
 */
export async function postPlatformMessage(
  db: Kysely<Database>,
  m: { guildId: string; channelId: string; content: string; idempotencyKey: string; buttons?: PlatformButtonRow[] },
): Promise<string | undefined> {
  const buttons = m.buttons?.length ? JSON.stringify(m.buttons) : null;
  const { rows } = await sql<{ unreachable: boolean; posted: string | null; earlier: string | null }>`
    with guild as (
      select exists (select 1 from platform_guilds where guild_id = ${m.guildId} and not reachable) as unreachable
    ), posted as (
      insert into platform_messages (guild_id, channel_id, content, idempotency_key, buttons)
      select ${m.guildId}, ${m.channelId}, ${m.content}, ${m.idempotencyKey}, ${buttons}::jsonb from guild where not unreachable
      on conflict (idempotency_key) do nothing
      returning id
    )
    select (select unreachable from guild) as unreachable, (select id from posted) as posted,
      (select id from platform_messages where idempotency_key = ${m.idempotencyKey}) as earlier
  `.execute(db);
  const { unreachable, posted, earlier } = rows[0]!;
  if (unreachable) return undefined;
  const id = posted ?? earlier;
  if (id !== null) return String(id);
  // The same key posted by a transaction that committed after this statement's snapshot: its row is there now.
  const row = await db.selectFrom('platform_messages').select('id').where('idempotency_key', '=', m.idempotencyKey).executeTakeFirstOrThrow();
  return String(row.id);
}

/**
 * Replaces a message's content (and its buttons when given: [] takes them away); false when the message is not in
 * that channel (deleted, or never posted).
 */
export async function editPlatformMessage(
  db: Kysely<Database>,
  m: { guildId: string; channelId: string; messageId: string; content: string; buttons?: PlatformButtonRow[] },
): Promise<boolean> {
  if (!/^\d{1,15}$/.test(m.messageId)) return false;
  const buttons = m.buttons === undefined ? {} : { buttons: m.buttons.length ? JSON.stringify(m.buttons) : null };
  const result = await db
    .updateTable('platform_messages')
    .set({ content: m.content, edited_at: new Date(), ...buttons })
    .where('id', '=', Number(m.messageId))
    .where('guild_id', '=', m.guildId)
    .where('channel_id', '=', m.channelId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export const listPlatformMessages = (db: Kysely<Database>, guildId: string, channelId: string) =>
  db
    .selectFrom('platform_messages')
    .select(['id', 'content', 'idempotency_key', 'created_at', 'edited_at', 'buttons'])
    .where('guild_id', '=', guildId)
    .where('channel_id', '=', channelId)
    .orderBy('id')
    .execute();
