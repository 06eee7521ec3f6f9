import { sql, type Kysely } from 'kysely';

// Ranks of large servers, recomputed in the background: deep leaderboard pages and a member's rank
// become index lookups instead of counting up to a million rows per request. Unlogged: after a crash
// the snapshot is simply recomputed.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNLOGGED TABLE level_rank_snapshots (
    guild_id text NOT NULL,
    position integer NOT NULL,
    user_id text NOT NULL,
    xp bigint NOT NULL,
    hidden boolean NOT NULL,
    messages integer NOT NULL,
    voice_minutes integer NOT NULL,
    PRIMARY KEY (guild_id, position)
  )`.execute(db);
  await sql`CREATE UNIQUE INDEX level_rank_snapshots_member_idx ON level_rank_snapshots (guild_id, user_id) INCLUDE (position)`.execute(db);
  await sql`CREATE UNLOGGED TABLE level_rank_snapshot_state (
    guild_id text PRIMARY KEY,
    total integer NOT NULL,
    refreshed_at timestamptz NOT NULL
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE level_rank_snapshot_state`.execute(db);
  await sql`DROP TABLE level_rank_snapshots`.execute(db);
}
