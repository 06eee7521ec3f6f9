import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface WebhookEndpoint {
  id: number;
  guildId: string;
  url: string;
  /** Empty: every event type. */
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  description: string | null;
  /** Set while (and after) a rotation's overlap: until then the previous secret signs too. Never the secret itself. */
  previousSecretExpiresAt: Date | null;
}

export const ENDPOINT_COLUMNS = [
  'id',
  'guild_id',
  'url',
  'events',
  'enabled',
  'disabled_reason',
  'failing_since',
  'created_at',
  'description',
  'previous_secret_expires_at',
] as const;

type EndpointRow = {
  id: number;
  guild_id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
  description: string | null;
  previous_secret_expires_at: Date | null;
};

export const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  guildId: r.guild_id,
  url: r.url,
  events: r.events,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  failingSince: r.failing_since,
  createdAt: r.created_at,
  description: r.description,
  previousSecretExpiresAt: r.previous_secret_expires_at,
});

const liveEndpoints = (db: Kysely<Database>) => db.selectFrom('webhook_endpoints').where('removed_at', 'is', null);

export async function insertEndpoint(
  db: Kysely<Database>,
  e: { guildId: string; url: string; events: string[]; secret: string; description?: string | null },
): Promise<WebhookEndpoint> {
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      guild_id: e.guildId,
      url: e.url,
      events: e.events,
      secret: e.secret,
      description: e.description ?? null,
      disabled_reason: null,
      failing_since: null,
      removed_at: null,
    })
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toEndpoint(row);
}

export async function countEndpoints(db: Kysely<Database>, guildId: string): Promise<number> {
  const row = await liveEndpoints(db).select((eb) => eb.fn.countAll<string>().as('n')).where('guild_id', '=', guildId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listEndpoints(db: Kysely<Database>, guildId: string): Promise<WebhookEndpoint[]> {
  return (await liveEndpoints(db).select(ENDPOINT_COLUMNS).where('guild_id', '=', guildId).orderBy('id').execute()).map(toEndpoint);
}

/** One of the guild's live endpoints; `lock` holds its row until the transaction ends (changes to it serialise). */
export async function findEndpoint(db: Kysely<Database>, guildId: string, id: number, options: { lock?: boolean } = {}): Promise<WebhookEndpoint | undefined> {
  const query = liveEndpoints(db).select(ENDPOINT_COLUMNS).where('guild_id', '=', guildId).where('id', '=', id);
  const row = await (options.lock ? query.forUpdate() : query).executeTakeFirst();
  return row && toEndpoint(row);
}

export async function setEndpointEnabled(db: Kysely<Database>, id: number, enabled: boolean, reason: string | null): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set(enabled ? { enabled, disabled_reason: null, failing_since: null } : { enabled, disabled_reason: reason })
    .where('id', '=', id)
    .execute();
}

/**
 * A new current secret. The one it replaces signs beside it until `previousUntil`, or stops at once (null); a
 * previous secret still in its overlap is dropped: two secrets sign at most.
 */
export async function replaceEndpointSecret(db: Kysely<Database>, id: number, secret: string, previousUntil: Date | null): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      secret,
      previous_secret: previousUntil ? eb.ref('secret') : null,
      previous_secret_expires_at: previousUntil,
    }))
    .where('id', '=', id)
    .execute();
}

export async function markEndpointRemoved(db: Kysely<Database>, id: number, at: Date): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ removed_at: at, enabled: false, disabled_reason: 'removed' }).where('id', '=', id).execute();
}

/** Enabled endpoints of the guild that take this event type (webhook.test goes to its one endpoint). */
export function subscribedEndpointIds(db: Kysely<Database>, event: { guildId: string; type: string; targetEndpointId?: number }) {
  const query = liveEndpoints(db).select('id').where('guild_id', '=', event.guildId).where('enabled', '=', true);
  return event.targetEndpointId !== undefined
    ? query.where('id', '=', event.targetEndpointId)
    : query.where(sql<boolean>`(cardinality(events) = 0 OR ${event.type} = ANY(events))`);
}

export async function subscribedEndpoints(
  db: Kysely<Database>,
  event: { guildId: string; type: string; targetEndpointId?: number },
): Promise<number[]> {
  return (await subscribedEndpointIds(db, event).orderBy('id').execute()).map((r) => r.id);
}

/** One delivery per endpoint and event; repeated calls return the same deliveries. */
export async function createDeliveries(
  db: Kysely<Database>,
  eventId: string,
  endpointIds: number[],
  body: string,
): Promise<Array<{ deliveryId: number; endpointId: number }>> {
  if (endpointIds.length > 0) {
    await db
      .insertInto('webhook_deliveries')
      .values(endpointIds.map((endpointId) => ({ endpoint_id: endpointId, event_id: eventId, body, status: 'pending' as const, completed_at: null, retry_requested_at: null })))
      .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
      .execute();
  }
  const rows = await db.selectFrom('webhook_deliveries').select(['id', 'endpoint_id']).where('event_id', '=', eventId).orderBy('endpoint_id').execute();
  return rows.map((r) => ({ deliveryId: r.id, endpointId: r.endpoint_id }));
}

export async function findDeliveryTarget(db: Kysely<Database>, deliveryId: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.event_id',
      'd.body',
      'd.status',
      'd.created_at',
      'e.id as endpoint_id',
      'e.url',
      'e.secret',
      'e.previous_secret',
      'e.previous_secret_expires_at',
      'e.enabled',
      'e.failing_since',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

export interface AttemptRecord {
  deliveryId: number;
  attempt: number;
  attemptedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  /** The signed headers the attempt sent; absent when unknown (an attempt cut short by a worker's stop). */
  requestHeaders?: Record<string, string> | null;
}

/** Logs an attempt once (a retried activity finds it logged) and keeps the delivery's count. */
export async function recordAttempt(db: Kysely<Database>, a: AttemptRecord): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: a.deliveryId,
        attempt: a.attempt,
        attempted_at: a.attemptedAt,
        duration_ms: a.durationMs,
        status_code: a.statusCode,
        error: a.error,
        response_excerpt: a.responseExcerpt,
        request_headers: a.requestHeaders ?? null,
        endpoint_id: trx.selectFrom('webhook_deliveries').select('endpoint_id').where('id', '=', a.deliveryId),
      })
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) {
      await trx.updateTable('webhook_deliveries').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', a.deliveryId).execute();
    }
  });
}

/** Ends a delivery's round. A delivery that succeeded keeps its status and time: only a resend makes it pending again. */
export async function finishDelivery(db: Kysely<Database>, deliveryId: number, status: 'succeeded' | 'failed' | 'cancelled', at: Date): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ status, completed_at: at }).where('id', '=', deliveryId).where('status', '!=', 'succeeded').execute();
}

/**
 * A success clears the endpoint's failure streak; a failure starts one if none is running. Each writes
 * only when the streak changes: every delivery of a busy endpoint passes here, and an unconditional
 * update would queue them all on the endpoint's row.
 */
export async function noteEndpointOutcome(db: Kysely<Database>, endpointId: number, ok: boolean, at: Date): Promise<Date | null> {
  const streak = db.updateTable('webhook_endpoints').where('id', '=', endpointId);
  if (ok) {
    await streak.set({ failing_since: null }).where('failing_since', 'is not', null).execute();
    return null;
  }
  await streak.set({ failing_since: at }).where('failing_since', 'is', null).execute();
  const row = await db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', endpointId).executeTakeFirstOrThrow();
  return row.failing_since;
}

export async function listDeliveries(db: Kysely<Database>, endpointId: number, status?: string) {
  let query = db.selectFrom('webhook_deliveries').select(['id', 'event_id', 'status', 'attempts', 'created_at', 'completed_at']).where('endpoint_id', '=', endpointId);
  if (status) query = query.where('status', '=', status as 'failed');
  const deliveries = await query.orderBy('id', 'desc').limit(100).execute();
  const attempts = deliveries.length
    ? await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveries.map((d) => d.id)).orderBy('attempt').execute()
    : [];
  return deliveries.map((d) => ({ ...d, attemptLog: attempts.filter((a) => a.delivery_id === d.id) }));
}
