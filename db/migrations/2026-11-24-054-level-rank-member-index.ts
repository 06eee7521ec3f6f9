import { sql, type Kysely } from 'kysely';

/**
 * A level rank recount now rewrites only the positions whose row changed, in place (db/shared/rankRecount.ts): two
 * members trading places pass through a moment where one of them stands at both, which a unique member index
 * refuses. The committed snapshot still holds each member once; the index only has to find them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX level_rank_snapshots_member_idx`.execute(db);
  await sql`CREATE INDEX level_rank_snapshots_member_idx ON level_rank_snapshots (guild_id, user_id) INCLUDE (position)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX level_rank_snapshots_member_idx`.execute(db);
  await sql`CREATE UNIQUE INDEX level_rank_snapshots_member_idx ON level_rank_snapshots (guild_id, user_id) INCLUDE (position)`.execute(db);
}
