import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

// The event trigger's reads of the events table (read only: the events area owns it) and its own cursor row.

export interface TriggerEvent {
  id: string;
  guildId: string;
  type: string;
  data: unknown;
  createdAt: Date;
  seq: number;
}

/** Events of the given types after `afterSeq` committed before `before`, in seq order. */
export async function listTriggerEvents(db: Kysely<Database>, types: readonly string[], afterSeq: number, before: Date, limit: number): Promise<TriggerEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'guild_id', 'type', 'data', 'created_at', 'seq'])
    .where('seq', '>', afterSeq)
    .where('type', 'in', [...types])
    .where('created_at', '<', before)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, guildId: r.guild_id, type: r.type, data: r.data, createdAt: r.created_at, seq: r.seq }));
}

/**
 * The cursor's position; a cursor seen for the first time starts after the newest event, so events from
 * before flows were deployed never start runs.
 */
export async function readTriggerCursor(db: Kysely<Database>, name: string): Promise<number> {
  const cursor = () => db.selectFrom('flow_event_cursors').select('last_seq').where('name', '=', name).executeTakeFirst();
  const existing = await cursor();
  if (existing) return existing.last_seq;
  await db
    .insertInto('flow_event_cursors')
    .values({ name, last_seq: sql<number>`coalesce((select max(seq) from events), 0)` })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await cursor())!.last_seq;
}

export async function advanceTriggerCursor(db: Kysely<Database>, name: string, seq: number): Promise<void> {
  await db
    .updateTable('flow_event_cursors')
    .set({ last_seq: sql<number>`greatest(last_seq, ${seq})` })
    .where('name', '=', name)
    .execute();
}
