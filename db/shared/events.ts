import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { EventDataByType, OutboxEvent } from '../../src/events/eventTypes.js';
import type { Database } from '../schema.js';

const newEventId = () => `evt_${randomBytes(16).toString('base64url')}`;

/** Writes an event with the transaction of the change it reports (the transactional outbox). */
export async function insertEvent<T extends keyof EventDataByType>(
  trx: Kysely<Database>,
  event: { type: T; guildId: string; createdAt: Date; data: EventDataByType[T] },
): Promise<OutboxEvent<T>> {
  const id = newEventId();
  await trx
    .insertInto('events')
    .values({ id, guild_id: event.guildId, type: event.type, data: JSON.stringify(event.data), created_at: event.createdAt })
    .execute();
  return { id, type: event.type, guildId: event.guildId, createdAt: event.createdAt.toISOString(), data: event.data };
}

export async function findEvent(db: Kysely<Database>, id: string): Promise<OutboxEvent | undefined> {
  const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
  return (
    row && {
      id: row.id,
      type: row.type as OutboxEvent['type'],
      guildId: row.guild_id,
      createdAt: row.created_at.toISOString(),
      data: row.data as OutboxEvent['data'],
    }
  );
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
