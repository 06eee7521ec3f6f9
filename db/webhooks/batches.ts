import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { AttemptRecord } from './webhooks.js';

// The first attempts of a batch of events (src/webhooks/firstAttempts.ts), one endpoint at a time.

const batchDeliveries = (db: Kysely<Database>, batchId: number) =>
  db.selectFrom('webhook_deliveries as d').innerJoin('events as e', 'e.id', 'd.event_id').where('e.batch_id', '=', String(batchId));

/**
 * What a batch has to do, in one statement (one wait for a pool connection on the way to the first attempts): the
 * endpoints its deliveries go to, and how many of its events are of `type`.
 */
export async function batchPlan(db: Kysely<Database>, batchId: number, type: string): Promise<{ endpointIds: number[]; events: number }> {
  const { rows } = await sql<{ endpoint_ids: number[]; events: string }>`
    select
      array(
        select distinct d.endpoint_id from webhook_deliveries d join events e on e.id = d.event_id
        where e.batch_id = ${String(batchId)} order by d.endpoint_id
      ) as endpoint_ids,
      (select count(*) from events where batch_id = ${String(batchId)} and type = ${type}) as events
  `.execute(db);
  return { endpointIds: rows[0]!.endpoint_ids.map(Number), events: Number(rows[0]!.events) };
}

export interface FirstAttemptDelivery {
  id: number;
  eventId: string;
  body: string;
  /** When the delivery was recorded, in its event's transaction. */
  committedAt: Date;
  /** Set when an earlier try of this step claimed the first attempt for dialling. */
  firstDialledAt: Date | null;
}

/** The batch's deliveries to the endpoint whose first attempt is not logged yet. */
export async function deliveriesAwaitingFirstAttempt(db: Kysely<Database>, batchId: number, endpointId: number): Promise<FirstAttemptDelivery[]> {
  const rows = await batchDeliveries(db, batchId)
    .select(['d.id', 'd.event_id', 'd.body', 'd.created_at', 'd.first_dialled_at'])
    .where('d.endpoint_id', '=', endpointId)
    .where('d.status', '=', 'pending')
    .where('d.attempts', '=', 0)
    .orderBy('e.seq')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), eventId: r.event_id, body: r.body, committedAt: r.created_at, firstDialledAt: r.first_dialled_at }));
}

/**
 * Claims first attempts for dialling, many in one statement; answers, per claim in order, whether it is
 * this caller's (false when an earlier try claimed it: it is not dialled again).
 */
export async function claimFirstAttempts(db: Kysely<Database>, claims: Array<{ deliveryId: number; at: Date }>): Promise<boolean[]> {
  const { rows } = await sql<{ id: string }>`
    update webhook_deliveries d
    set first_dialled_at = c.at
    from unnest(${claims.map((c) => c.deliveryId)}::bigint[], ${claims.map((c) => c.at)}::timestamptz[]) as c(id, at)
    where d.id = c.id and d.first_dialled_at is null
    returning d.id
  `.execute(db);
  const claimed = new Set(rows.map((r) => Number(r.id)));
  // A delivery named twice in one statement is claimed once: the first asker has it.
  return claims.map((c) => claimed.delete(c.deliveryId));
}

/** The error of a first attempt whose dial was claimed but whose outcome was never logged (src/webhooks/firstAttempts.ts). */
export const INTERRUPTED_ATTEMPT = 'the worker stopped during this attempt; its outcome is unknown';

/**
 * Logs first attempts once, many in one statement: each attempt row, its delivery's count and, after a
 * success, its final status. A failed one stays pending for its retry run; one logged already is left as it is,
 * except an interrupted one: a try of the batch step that was still dialling when the next try took over (its
 * heartbeat timed out during a Temporal stall) logs the real outcome over it, and a success then closes the
 * delivery, so the retry run the next try started does not send it again (activities/webhooks.ts).
 */
export async function recordFirstAttempts(db: Kysely<Database>, attempts: Array<AttemptRecord & { ok: boolean }>): Promise<void> {
  const rows = attempts.map((a) => ({
    delivery_id: a.deliveryId,
    attempt: a.attempt,
    attempted_at: a.attemptedAt.toISOString(),
    duration_ms: a.durationMs,
    status_code: a.statusCode,
    error: a.error,
    response_excerpt: a.responseExcerpt,
    request_headers: a.requestHeaders ?? null,
    ok: a.ok,
  }));
  await sql`
    with given as (
      select distinct on (delivery_id, attempt) *
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as g(
        delivery_id bigint, attempt integer, attempted_at timestamptz, duration_ms integer,
        status_code integer, error text, response_excerpt text, request_headers jsonb, ok boolean
      )
    ),
    logged as (
      insert into webhook_attempts (delivery_id, attempt, attempted_at, duration_ms, status_code, error, response_excerpt, request_headers, endpoint_id)
      select g.delivery_id, g.attempt, g.attempted_at, g.duration_ms, g.status_code, g.error, g.response_excerpt, g.request_headers, d.endpoint_id
      from given g join webhook_deliveries d on d.id = g.delivery_id
      on conflict (delivery_id, attempt) do update
        set attempted_at = excluded.attempted_at, duration_ms = excluded.duration_ms, status_code = excluded.status_code,
            error = excluded.error, response_excerpt = excluded.response_excerpt, request_headers = excluded.request_headers
        where webhook_attempts.error = ${INTERRUPTED_ATTEMPT} and excluded.error is distinct from ${INTERRUPTED_ATTEMPT}
      returning delivery_id, attempt, (xmax = 0) as inserted
    )
    update webhook_deliveries d
    set attempts = d.attempts + case when l.inserted then 1 else 0 end,
        status = case when g.ok then 'succeeded' else d.status end,
        completed_at = case when g.ok then g.attempted_at else d.completed_at end
    from logged l join given g on g.delivery_id = l.delivery_id and g.attempt = l.attempt
    where d.id = l.delivery_id
  `.execute(db);
}

/** The endpoint was disabled or removed after the event committed: its waiting deliveries stop. */
export async function cancelFirstAttempts(db: Kysely<Database>, batchId: number, endpointId: number, at: Date): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', completed_at: at })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('event_id', 'in', db.selectFrom('events').select('id').where('batch_id', '=', String(batchId)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The batch's deliveries to the endpoint whose logged first attempt failed, with when it ended. */
export async function failedFirstAttempts(db: Kysely<Database>, batchId: number, endpointId: number) {
  const rows = await batchDeliveries(db, batchId)
    .innerJoin('webhook_attempts as a', (join) => join.onRef('a.delivery_id', '=', 'd.id').on('a.attempt', '=', 1))
    .select(['d.id', 'd.event_id', 'e.type', 'a.attempted_at', 'a.duration_ms'])
    .where('d.endpoint_id', '=', endpointId)
    .where('d.status', '=', 'pending')
    .orderBy('e.seq')
    .execute();
  return rows.map((r) => ({ deliveryId: Number(r.id), eventId: r.event_id, eventType: r.type, failedAt: r.attempted_at.getTime() + r.duration_ms }));
}

export async function countSucceededFirstAttempts(db: Kysely<Database>, batchId: number, endpointId: number): Promise<number> {
  const row = await batchDeliveries(db, batchId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('d.endpoint_id', '=', endpointId)
    .where('d.status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findAttemptEndpoint(db: Kysely<Database>, endpointId: number) {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'secret', 'previous_secret', 'previous_secret_expires_at', 'enabled'])
    .where('id', '=', endpointId)
    .executeTakeFirst();
  return row && { id: row.id, url: row.url, enabled: row.enabled, secret: row.secret, previousSecret: row.previous_secret, previousSecretExpiresAt: row.previous_secret_expires_at };
}
