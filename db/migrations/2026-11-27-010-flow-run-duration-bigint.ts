import { sql, type Kysely } from 'kysely';

/**
 * `flow_runs.duration_ms` as bigint: an integer holds 2^31 - 1 ms, about 24.8 days. The duration counts from the
 * run's acceptance, so a run held open longer (its workflow started or finished late, the worker down for weeks)
 * could never record its end: the update would fail on every retry. The change rewrites the table once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE flow_runs ALTER COLUMN duration_ms TYPE bigint`.execute(db);
}

/** Fails while a stored duration is past the integer range: those runs would have to be cleared first. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE flow_runs ALTER COLUMN duration_ms TYPE integer`.execute(db);
}
