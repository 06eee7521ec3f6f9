import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { batchOutcome, batchTally, expiredByServer, type BatchOutcome, type BatchTally, type ExpiredRows, type PlanCutoffs } from './expiredByServer.js';

type Batch = (db: Kysely<Database>, cutoffs: PlanCutoffs, cursor: string, limit: number) => Promise<BatchOutcome>;

/** Deletes one batch of a table's expired rows, matched on `key`, in one statement (one short transaction). */
function deleteExpired(rows: Omit<ExpiredRows, 'columns'>, key: string): Batch {
  return async (db, cutoffs, cursor, limit) => {
    const { rows: [row] } = await sql<BatchTally>`
      with doomed as (${expiredByServer({ ...rows, columns: [key] }, cutoffs, cursor, limit)}),
      gone as (delete from ${sql.table(rows.table)} t using doomed d where ${sql.ref(`t.${key}`)} = ${sql.ref(`d.${key}`)} returning d.guild_id, d.at)
      ${batchTally}`.execute(db);
    return batchOutcome(row!, limit);
  };
}

/** Each kind's rows that come due, and the moment their retention counts from (also read for the next due time). */
export const AUDIT_ROWS = { table: 'audit_log', time: 'created_at' };
/** Settled changes only: one still pending or processing is an operation under way. */
export const XP_CHANGE_ROWS = { table: 'xp_changes', time: 'processed_at', where: sql`t.status in ('done', 'failed')` };
export const MOD_ACTION_ROWS = { table: 'moderation_actions', time: 'finished_at', where: sql`t.status in ('done', 'failed')` };
export const FLOW_RUN_ROWS = { table: 'flow_runs', time: 'finished_at', where: sql`t.status <> 'running'` };

export const purgeAuditLogBatch = deleteExpired(AUDIT_ROWS, 'id');
export const purgeXpChangesBatch = deleteExpired(XP_CHANGE_ROWS, 'change_id');
export const purgeModerationActionsBatch = deleteExpired(MOD_ACTION_ROWS, 'action_id');

/** Finished runs and the effects they applied once (keyed by run and node: nothing runs the node again). */
export const purgeFlowRunsBatch: Batch = async (db, cutoffs, cursor, limit) => {
  const doomed = expiredByServer({ ...FLOW_RUN_ROWS, columns: ['execution_id'] }, cutoffs, cursor, limit);
  const { rows: [row] } = await sql<BatchTally>`
    with doomed as (${doomed}),
    effects as (delete from flow_effects e using doomed d where e.execution_id = d.execution_id),
    gone as (delete from flow_runs t using doomed d where t.execution_id = d.execution_id returning d.guild_id, d.at)
    ${batchTally}`.execute(db);
  return batchOutcome(row!, limit);
};
