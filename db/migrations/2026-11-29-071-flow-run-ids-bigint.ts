import { sql, type Kysely } from 'kysely';

/**
 * Flow run ids as bigint: `flow_run_execution_seq` was an integer sequence, 2^31 - 1 runs for the whole service (about
 * 215 days at 1,000 busy servers). The sequence's type change moves its maximum to bigint's; the two columns are
 * rewritten under an ACCESS EXCLUSIVE lock (reads of the tables wait for it), each in this one short transaction
 * under the migration's lock_timeout with retries. Fine while the tables are small, as they are expected to be at this
 * upgrade (flows shipped days before it); docs/deployment.md ("Widening a hot table's id") gives the procedure for a
 * large table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER SEQUENCE flow_run_execution_seq AS bigint`.execute(db);
  await sql`ALTER TABLE flow_runs ALTER COLUMN execution_id TYPE bigint`.execute(db);
  await sql`ALTER TABLE flow_effects ALTER COLUMN execution_id TYPE bigint`.execute(db);
}

/** Fails while a run id is past the integer range. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE flow_effects ALTER COLUMN execution_id TYPE integer`.execute(db);
  await sql`ALTER TABLE flow_runs ALTER COLUMN execution_id TYPE integer`.execute(db);
  await sql`ALTER SEQUENCE flow_run_execution_seq AS integer`.execute(db);
}
