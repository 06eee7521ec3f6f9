import { sql, type Kysely } from 'kysely';

/**
 * When the retention purge dispatcher's next pass is due (docs/retention.md, "When the purge runs"): one row.
 * `planned_at`: the pass the dispatcher was last told of (its own plan after a pass, or a wake the start relay sent);
 * null until its first pass. `wanted_at`: a pass asked for sooner and not yet sent (a server's plan changed, or the
 * relay found a record coming due before `planned_at`); the relay sends it and clears it in one transaction, so a
 * lost signal is sent again. Logged: a request lost with a crash would keep records past their retention.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE retention_purge_plan (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    planned_at timestamptz,
    wanted_at timestamptz
  )`.execute(db);
  await sql`INSERT INTO retention_purge_plan DEFAULT VALUES`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE retention_purge_plan`.execute(db);
}
