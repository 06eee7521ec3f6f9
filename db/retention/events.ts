import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { batchOutcome, batchTally, expiredByServer, type BatchOutcome, type BatchTally, type PlanCutoffs } from './expiredByServer.js';

/**
 * Events that come due: an event stays while anything may still need it: its fan-out not started, a delivery still
 * pending (a retry under way or asked for in the console), or an event-trigger cursor of flows not yet past it.
 */
export const EVENT_ROWS = {
  table: 'events',
  time: 'created_at',
  where: sql`t.fanout_started_at is not null
    and t.seq <= (select coalesce(min(last_seq), 9223372036854775807) from flow_event_cursors)
    and not exists (select 1 from webhook_deliveries w where w.event_id = t.id and w.status = 'pending')`,
};

/**
 * One batch of expired events with their webhook deliveries and attempts, children first in the same statement (the
 * foreign keys have no cascade); EVENT_ROWS says which stay.
 */
export async function purgeEventsBatch(db: Kysely<Database>, cutoffs: PlanCutoffs, cursor: string, limit: number): Promise<BatchOutcome> {
  const doomed = expiredByServer({ ...EVENT_ROWS, columns: ['id'] }, cutoffs, cursor, limit);
  const { rows: [row] } = await sql<BatchTally>`
    with doomed as (${doomed}),
    deliveries as (select w.id from webhook_deliveries w join doomed d on w.event_id = d.id),
    attempts as (delete from webhook_attempts a using deliveries w where a.delivery_id = w.id),
    delivered as (delete from webhook_deliveries w using deliveries x where w.id = x.id),
    gone as (delete from events t using doomed d where t.id = d.id returning d.guild_id, d.at)
    ${batchTally}`.execute(db);
  return batchOutcome(row!, limit);
}
