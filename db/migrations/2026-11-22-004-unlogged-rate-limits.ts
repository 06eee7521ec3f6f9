import { sql, type Kysely } from 'kysely';

// Every authenticated request bumps a counter row; without WAL the bump needs no flush at commit,
// which is what made the counter row a queue under load. After a crash the counters restart empty,
// which only forgives the current minute.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE rate_limit_counters SET UNLOGGED`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE rate_limit_counters SET LOGGED`.execute(db);
}
