import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

// Requests for another round of attempts (an operator's retry or resend, a recovery), taken by the start relay.

/**
 * Marks every delivery to the endpoint created since `since` that ended without being delivered (failed, or
 * cancelled while the endpoint was off) for another round of attempts, and returns their ids. A delivery marked
 * so is pending again, with a round queued or running, so a second call (or one racing this one: each row is
 * taken under its lock) finds it no longer failed and does not send it twice.
 */
export async function requestRecovery(db: Kysely<Database>, endpointId: number, since: Date, at: Date): Promise<number[]> {
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', retry_requested_at: at, completed_at: null })
    .where('endpoint_id', '=', endpointId)
    .where('status', 'in', ['failed', 'cancelled'])
    .where('created_at', '>=', since)
    .returning('id')
    .execute();
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/**
 * Marks a finished delivery (failed, cancelled, or delivered: a resend) for another round of attempts; the start
 * relay picks it up. A pending one has a round running or queued, so it is left as it is.
 */
export async function requestDeliveryRetry(db: Kysely<Database>, deliveryId: number, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', retry_requested_at: at, completed_at: null })
    .where('id', '=', deliveryId)
    .where('status', 'in', ['failed', 'cancelled', 'succeeded'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deliveries an operator asked to retry, oldest request first, with the attempts made so far. */
export async function listRetryRequests(
  db: Kysely<Database>,
  limit: number,
): Promise<Array<{ deliveryId: number; endpointId: number; eventId: string; attempts: number }>> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'endpoint_id', 'event_id', 'attempts'])
    .where('retry_requested_at', 'is not', null)
    .orderBy('retry_requested_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ deliveryId: r.id, endpointId: r.endpoint_id, eventId: r.event_id, attempts: r.attempts }));
}

export async function clearRetryRequest(db: Kysely<Database>, deliveryId: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ retry_requested_at: null }).where('id', '=', deliveryId).execute();
}

/** The retry an operator asked for on this delivery, if it is still waiting to start. */
export async function findRetryRequest(
  db: Kysely<Database>,
  deliveryId: number,
): Promise<{ deliveryId: number; endpointId: number; eventId: string; attempts: number } | undefined> {
  const r = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'endpoint_id', 'event_id', 'attempts'])
    .where('id', '=', deliveryId)
    .where('retry_requested_at', 'is not', null)
    .executeTakeFirst();
  return r && { deliveryId: r.id, endpointId: r.endpoint_id, eventId: r.event_id, attempts: r.attempts };
}
