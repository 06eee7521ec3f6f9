import type { Kysely } from 'kysely';
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

/** One page of an endpoint's deliveries, newest first, filtered by status and event type. */
export async function listDeliveryPage(
  db: Kysely<Database>,
  endpointId: number,
  filter: { status?: DeliverySummary['status']; eventType?: string; beforeId?: number; limit: number },
): Promise<DeliverySummary[]> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as ev', 'ev.id', 'd.event_id')
    .select(['d.id', 'd.event_id', 'ev.type', 'd.status', 'd.attempts', 'd.created_at', 'd.completed_at'])
    .where('d.endpoint_id', '=', endpointId);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  if (filter.eventType) query = query.where('ev.type', '=', filter.eventType);
  if (filter.beforeId !== undefined) query = query.where('d.id', '<', filter.beforeId);
  return (await query.orderBy('d.id', 'desc').limit(filter.limit).execute()).map(summaryOf);
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
    })),
  };
}
