import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

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
