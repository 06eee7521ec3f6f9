import { sql, type Kysely } from 'kysely';

/**
 * The indexes the retention purge (db/retention) reads through: per server and the moment each kind's retention
 * counts from, partial where only settled records are purged, plus the bookkeeping tables' time columns. Built
 * concurrently, outside a transaction, so writes to these hot tables go on during the build.
 */
export const transaction = false;

const INDEXES: Array<[name: string, definition: string]> = [
  ['events_guild_created', 'events (guild_id, created_at)'],
  ['audit_log_guild_created', 'audit_log (guild_id, created_at)'],
  ['flow_runs_guild_finished', `flow_runs (guild_id, finished_at) WHERE status <> 'running'`],
  ['xp_changes_guild_settled', `xp_changes (guild_id, processed_at) WHERE status IN ('done', 'failed')`],
  ['moderation_actions_guild_settled', `moderation_actions (guild_id, finished_at) WHERE status IN ('done', 'failed')`],
  ['tickets_guild_closed', `tickets (guild_id, closed_at) WHERE status = 'closed'`],
  ['level_up_effects_applied', 'level_up_effects (applied_at) WHERE applied_at IS NOT NULL'],
  ['rate_limit_counters_window', 'rate_limit_counters (window_start)'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, definition] of INDEXES) {
    // A failed concurrent build leaves an invalid index of that name behind.
    await sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.raw(name)}`.execute(db);
    await sql`CREATE INDEX CONCURRENTLY ${sql.raw(name)} ON ${sql.raw(definition)}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.raw(name)}`.execute(db);
}
