import { sql, type Kysely } from 'kysely';

/**
 * A member's all-time rank is now counted from the per-count tallies (migration 051), so the rank snapshot no
 * longer needs its member index: keeping it up was most of every recount (24 s with it, 7 s without, on 1,000,000
 * inviters: random inserts into a second btree), all of it competing with the api for the same cores.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX invite_rank_snapshots_member_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNIQUE INDEX invite_rank_snapshots_member_idx ON invite_rank_snapshots (guild_id, user_id) INCLUDE (rank)`.execute(db);
}
