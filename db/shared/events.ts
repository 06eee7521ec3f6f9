import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** An event as stored; src/events types its `data` by kind. */
export interface StoredEvent {
  id: string;
  type: string;
  guildId: string;
  createdAt: string;
  data: unknown;
}

const newEventId = () => `evt_${randomBytes(16).toString('base64url')}`;

export async function insertEvent(
  trx: Kysely<Database>,
  event: { type: string; guildId: string; createdAt: Date; data: unknown },
): Promise<StoredEvent> {
  const id = newEventId();
  await trx
    .insertInto('events')
    .values({ id, guild_id: event.guildId, type: event.type, data: JSON.stringify(event.data), created_at: event.createdAt })
    .execute();
  return { id, type: event.type, guildId: event.guildId, createdAt: event.createdAt.toISOString(), data: event.data };
}

export async function findEvent(db: Kysely<Database>, id: string): Promise<StoredEvent | undefined> {
  const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, type: row.type, guildId: row.guild_id, createdAt: row.created_at.toISOString(), data: row.data };
}

/** Events whose fan-out was not started yet, oldest first, created before `olderThan`. */
export async function listUnstartedEvents(
  db: Kysely<Database>,
  olderThan: Date,
  limit: number,
): Promise<Array<{ id: string; guildId: string; type: string }>> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'guild_id', 'type'])
    .where('fanout_started_at', 'is', null)
    .where('created_at', '<', olderThan)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, guildId: r.guild_id, type: r.type }));
}

export async function markFanoutStarted(db: Kysely<Database>, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('events').set({ fanout_started_at: at }).where('id', 'in', ids).where('fanout_started_at', 'is', null).execute();
}
