import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { deliveryBody } from '../webhooks/deliveryBody.js';
import { subscribedEndpointIds } from '../webhooks/webhooks.js';
import type { Database } from '../schema.js';

/** An event as stored; src/events types its `data` by kind. */
export interface StoredEvent {
  id: string;
  type: string;
  guildId: string;
  createdAt: string;
  data: unknown;
}

export const newEventId = () => `evt_${randomBytes(16).toString('base64url')}`;

/** An operator's test event goes to its one endpoint when it is sent, whatever that endpoint subscribes to. */
const SENT_TO_ONE_ENDPOINT = 'webhook.test';

/**
 * Writes the event and, in the same statement, one pending delivery per endpoint subscribed at this moment:
 * which endpoints receive an event is decided when it commits (an endpoint added later never receives it).
 */
export async function insertEvent(
  trx: Kysely<Database>,
  event: { type: string; guildId: string; createdAt: Date; data: unknown },
): Promise<StoredEvent> {
  const stored: StoredEvent = { id: newEventId(), type: event.type, guildId: event.guildId, createdAt: event.createdAt.toISOString(), data: event.data };
  const row = { id: stored.id, guild_id: event.guildId, type: event.type, data: JSON.stringify(event.data), created_at: event.createdAt };
  if (event.type === SENT_TO_ONE_ENDPOINT) {
    await trx.insertInto('events').values({ ...row, deliveries_at_commit: false }).execute();
    return stored;
  }
  const body = deliveryBody(stored);
  await trx
    .with('event', (db) => db.insertInto('events').values(row))
    .insertInto('webhook_deliveries')
    .columns(['endpoint_id', 'event_id', 'body', 'status'])
    .expression(
      subscribedEndpointIds(trx, event).select((eb) => [eb.val(stored.id).as('event_id'), eb.val(body).as('body'), sql<'pending'>`'pending'`.as('status')]),
    )
    .execute();
  return stored;
}

const toStoredEvent = (row: Selectable<Database['events']>): StoredEvent => ({
  id: row.id,
  type: row.type,
  guildId: row.guild_id,
  createdAt: row.created_at.toISOString(),
  data: row.data,
});

export async function findEvent(db: Kysely<Database>, id: string): Promise<StoredEvent | undefined> {
  const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toStoredEvent(row);
}

/**
 * A batch's events in commit order: those of one type, or those written before deliveries were recorded at commit
 * (`deliveriesAtCommit: false`; theirs are created when the batch runs).
 */
export async function findBatchEvents(
  db: Kysely<Database>,
  batchId: number,
  filter: { type: string } | { deliveriesAtCommit: false },
): Promise<StoredEvent[]> {
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('batch_id', '=', String(batchId))
    .$if('type' in filter, (q) => q.where('type', '=', (filter as { type: string }).type))
    .$if('deliveriesAtCommit' in filter, (q) => q.where('deliveries_at_commit', '=', false))
    .orderBy('seq')
    .execute();
  return rows.map(toStoredEvent);
}

export interface UnstartedEvent {
  id: string;
  guildId: string;
  type: string;
  /** Set when a batch claimed the event but its start was not recorded. */
  batchId: number | null;
}

/** Events whose fan-out was not started yet, oldest first, created before `olderThan`. */
export async function listUnstartedEvents(db: Kysely<Database>, olderThan: Date, limit: number): Promise<UnstartedEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'guild_id', 'type', 'batch_id'])
    .where('fanout_started_at', 'is', null)
    .where('created_at', '<', olderThan)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, guildId: r.guild_id, type: r.type, batchId: r.batch_id === null ? null : Number(r.batch_id) }));
}

export interface ClaimedBatch {
  batchId: number;
  eventIds: string[];
  /**
   * What the batch has to do, read with the claim: the endpoints its deliveries go to and its bank.transaction
   * events. Undefined when an event's deliveries were not recorded at its commit (the batch's plan step makes them).
   */
  plan: { endpointIds: number[]; bankLogEvents: number } | undefined;
}

/** Claims the events no batch holds yet into a new batch, with its plan; undefined when none was free. */
export async function claimEventBatch(db: Kysely<Database>, eventIds: string[]): Promise<ClaimedBatch | undefined> {
  if (eventIds.length === 0) return undefined;
  const { rows } = await sql<{ id: string; batch_id: string; type: string; deliveries_at_commit: boolean; endpoint_ids: number[] }>`
    with batch as (select nextval('event_batch_seq') as id),
    claimed as (
      update events set batch_id = (select id from batch)
      where id in (${sql.join(eventIds)}) and batch_id is null
      returning id, batch_id, type, deliveries_at_commit
    )
    select c.id, c.batch_id, c.type, c.deliveries_at_commit,
      array(select d.endpoint_id from webhook_deliveries d where d.event_id = c.id) as endpoint_ids
    from claimed c
  `.execute(db);
  if (rows.length === 0) return undefined;
  const plan = rows.every((r) => r.deliveries_at_commit)
    ? {
        endpointIds: [...new Set(rows.flatMap((r) => r.endpoint_ids.map(Number)))].sort((a, b) => a - b),
        bankLogEvents: rows.filter((r) => r.type === 'bank.transaction').length,
      }
    : undefined;
  return { batchId: Number(rows[0]!.batch_id), eventIds: rows.map((r) => r.id), plan };
}

export async function markBatchStarted(db: Kysely<Database>, batchId: number, at: Date): Promise<void> {
  await db.updateTable('events').set({ fanout_started_at: at }).where('batch_id', '=', String(batchId)).where('fanout_started_at', 'is', null).execute();
}

/** Creation time of the oldest event whose fan-out has not started (the outbox lag); undefined when none waits. */
export async function oldestUnstartedEventAt(db: Kysely<Database>): Promise<Date | undefined> {
  const row = await db
    .selectFrom('events')
    .select('created_at')
    .where('fanout_started_at', 'is', null)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at;
}
