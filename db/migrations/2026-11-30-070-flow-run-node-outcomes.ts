import { sql, type Kysely } from 'kysely';

/**
 * For the console's flow pages. `node_outcomes`: what each node of a run did (FlowNodeOutcome[]), written with the
 * run's end so a run can be shown node by node after Temporal forgot it; null for runs that ended before (or on a
 * release that does not write it, during a roll); nullable without a default, so adding it rewrites nothing.
 * `flow_runs_guild_flow_execution`: one flow's runs newest first (keyset on execution_id), built concurrently, outside
 * a transaction, so runs go on being recorded during the build.
 */
export const transaction = false;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE flow_runs ADD COLUMN IF NOT EXISTS node_outcomes jsonb`.execute(db);
  // A failed concurrent build leaves an invalid index of that name behind.
  await sql`DROP INDEX CONCURRENTLY IF EXISTS flow_runs_guild_flow_execution`.execute(db);
  await sql`CREATE INDEX CONCURRENTLY flow_runs_guild_flow_execution ON flow_runs (guild_id, flow_id, execution_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX CONCURRENTLY IF EXISTS flow_runs_guild_flow_execution`.execute(db);
  await sql`ALTER TABLE flow_runs DROP COLUMN IF EXISTS node_outcomes`.execute(db);
}
