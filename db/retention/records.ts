import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { batchOutcome, expiredByServer, type BatchOutcome, type ExpiredRows, type PlanCutoffs } from './expiredByServer.js';

type Batch = (db: Kysely<Database>, cutoffs: PlanCutoffs, cursor: string, limit: number) => Promise<BatchOutcome>;

/** Deletes one batch of a table's expired rows, matched on `key`, in one statement (one short transaction). */
function deleteExpired(rows: Omit<ExpiredRows, 'columns'>, key: string): Batch {
  return async (db, cutoffs, cursor, limit) => {
    const { rows: [row] } = await sql<{ deleted: number; last: string | null }>`
      with doomed as (${expiredByServer({ ...rows, columns: [key] }, cutoffs, cursor, limit)}),
      gone as (delete from ${sql.table(rows.table)} t using doomed d where ${sql.ref(`t.${key}`)} = ${sql.ref(`d.${key}`)} returning d.guild_id)
      select count(*)::int as deleted, max(guild_id) as last from gone`.execute(db);
    return batchOutcome(row!.deleted, row!.last, limit);
  };
}

export const purgeAuditLogBatch = deleteExpired({ table: 'audit_log', time: 'created_at' }, 'id');

/** Settled changes only: one still pending or processing is an operation under way. */
export const purgeXpChangesBatch = deleteExpired({ table: 'xp_changes', time: 'processed_at', where: sql`t.status in ('done', 'failed')` }, 'change_id');

export const purgeModerationActionsBatch = deleteExpired(
  { table: 'moderation_actions', time: 'finished_at', where: sql`t.status in ('done', 'failed')` },
  'action_id',
);

/** Finished runs and the effects they applied once (keyed by run and node: nothing runs the node again). */
export const purgeFlowRunsBatch: Batch = async (db, cutoffs, cursor, limit) => {
  const doomed = expiredByServer({ table: 'flow_runs', time: 'finished_at', columns: ['execution_id'], where: sql`t.status <> 'running'` }, cutoffs, cursor, limit);
  const { rows: [row] } = await sql<{ deleted: number; last: string | null }>`
    with doomed as (${doomed}),
    effects as (delete from flow_effects e using doomed d where e.execution_id = d.execution_id),
    gone as (delete from flow_runs t using doomed d where t.execution_id = d.execution_id returning d.guild_id)
    select count(*)::int as deleted, max(guild_id) as last from gone`.execute(db);
  return batchOutcome(row!.deleted, row!.last, limit);
};
