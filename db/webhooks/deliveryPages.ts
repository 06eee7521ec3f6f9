import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface DeliverySummary {
  id: number;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
  createdAt: Date;
  completedAt: Date | null;
}

export interface DeliveryAttempt {
  attempt: number;
  attemptedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  /** The signed headers it sent (id, timestamp, signature); null when not known. */
  requestHeaders: Record<string, string> | null;
}

export interface DeliveryDetail extends DeliverySummary {
  endpointId: number;
  body: string;
  batchId: string | null;
  retryRequestedAt: Date | null;
  attemptLog: DeliveryAttempt[];
}

const summaryOf = (r: {
  id: number;
  event_id: string;
  type: string;
  status: DeliverySummary['status'];
  attempts: number;
  created_at: Date;
  completed_at: Date | null;
}): DeliverySummary => ({
  id: r.id,
  eventId: r.event_id,
  eventType: r.type,
  status: r.status,
  attempts: r.attempts,
  createdAt: r.created_at,
  completedAt: r.completed_at,
});

export interface DeliverySearch {
  /** One endpoint's deliveries; every live endpoint of the guild when absent. */
  endpointId?: number;
  status?: DeliverySummary['status'];
  eventType?: string;
  eventId?: string;
  /** Created at or after. */
  from?: Date;
  /** Created before. */
  until?: Date;
  /** The latest attempt's HTTP status, or `none`: its attempt got no HTTP answer. */
  lastStatusCode?: number | 'none';
  beforeId?: number;
  limit: number;
}

export interface DeliveryListRow extends DeliverySummary {
  endpointId: number;
  endpointUrl: string;
  /** Null before the first attempt, or when the latest got no HTTP answer. */
  lastStatusCode: number | null;
}

const LAST_STATUS_CODE = sql<number | null>`(select a.status_code from webhook_attempts a where a.delivery_id = d.id order by a.attempt desc limit 1)`;

/** One page of the guild's deliveries (of its live endpoints), newest first, filtered. */
export async function searchDeliveries(db: Kysely<Database>, guildId: string, filter: DeliverySearch): Promise<DeliveryListRow[]> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('events as ev', 'ev.id', 'd.event_id')
    .select(['d.id', 'd.event_id', 'ev.type', 'd.status', 'd.attempts', 'd.created_at', 'd.completed_at', 'd.endpoint_id', 'e.url'])
    .select(LAST_STATUS_CODE.as('last_status_code'))
    .where('e.guild_id', '=', guildId)
    .where('e.removed_at', 'is', null);
  if (filter.endpointId !== undefined) query = query.where('d.endpoint_id', '=', filter.endpointId);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  if (filter.eventType) query = query.where('ev.type', '=', filter.eventType);
  if (filter.eventId) query = query.where('d.event_id', '=', filter.eventId);
  if (filter.from) query = query.where('d.created_at', '>=', filter.from);
  if (filter.until) query = query.where('d.created_at', '<', filter.until);
  const code = filter.lastStatusCode;
  if (code === 'none') query = query.where('d.attempts', '>', 0).where(LAST_STATUS_CODE, 'is', null);
  else if (code !== undefined) query = query.where(LAST_STATUS_CODE, '=', code);
  if (filter.beforeId !== undefined) query = query.where('d.id', '<', filter.beforeId);
  const rows = await query.orderBy('d.id', 'desc').limit(filter.limit).execute();
  return rows.map((r) => ({ ...summaryOf(r), endpointId: r.endpoint_id, endpointUrl: r.url, lastStatusCode: r.last_status_code ?? null }));
}

/** A delivery of one of the guild's endpoints with its body and every attempt; undefined for another guild's. */
export async function findDeliveryDetail(db: Kysely<Database>, guildId: string, deliveryId: number): Promise<DeliveryDetail | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('events as ev', 'ev.id', 'd.event_id')
    .select(['d.id', 'd.event_id', 'ev.type', 'ev.batch_id', 'd.status', 'd.attempts', 'd.created_at', 'd.completed_at', 'd.body', 'd.endpoint_id', 'd.retry_requested_at'])
    .where('d.id', '=', deliveryId)
    .where('e.guild_id', '=', guildId)
    .where('e.removed_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const attempts = await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
  return {
    ...summaryOf(row),
    endpointId: row.endpoint_id,
    body: row.body,
    batchId: row.batch_id,
    retryRequestedAt: row.retry_requested_at,
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt,
      attemptedAt: a.attempted_at,
      durationMs: a.duration_ms,
      statusCode: a.status_code,
      error: a.error,
      responseExcerpt: a.response_excerpt,
      requestHeaders: a.request_headers,
    })),
  };
}
