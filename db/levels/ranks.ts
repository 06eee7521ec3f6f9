import { sql, type Kysely } from 'kysely';
import type { LeaderboardRow } from './members.js';
import type { Database } from '../schema.js';

export interface RankSnapshotState {
  total: number;
  refreshedAt: Date;
}

export async function findRankSnapshot(db: Kysely<Database>, guildId: string): Promise<RankSnapshotState | undefined> {
  const row = await db.selectFrom('level_rank_snapshot_state').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  return row && { total: row.total, refreshedAt: row.refreshed_at };
}

/** Recomputes a guild's snapshot in one transaction: readers see the old one until it commits. */
export async function refreshRankSnapshot(db: Kysely<Database>, guildId: string, at: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('level_rank_snapshots').where('guild_id', '=', guildId).execute();
    const inserted = await sql`
      INSERT INTO level_rank_snapshots (guild_id, position, user_id, xp, hidden, messages, voice_minutes)
      SELECT guild_id, row_number() OVER (ORDER BY xp DESC, user_id), user_id, xp, hidden, messages, voice_minutes
      FROM level_members WHERE guild_id = ${guildId} AND xp > 0`.execute(trx);
    const total = Number(inserted.numAffectedRows ?? 0n);
    await trx
      .insertInto('level_rank_snapshot_state')
      .values({ guild_id: guildId, total, refreshed_at: at })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet({ total, refreshed_at: at }))
      .execute();
    return total;
  });
}

export async function dropRankSnapshot(db: Kysely<Database>, guildId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('level_rank_snapshots').where('guild_id', '=', guildId).execute();
    await trx.deleteFrom('level_rank_snapshot_state').where('guild_id', '=', guildId).execute();
  });
}

export async function snapshotPage(db: Kysely<Database>, guildId: string, offset: number, limit: number): Promise<LeaderboardRow[]> {
  const rows = await db
    .selectFrom('level_rank_snapshots')
    .select(['user_id', 'hidden', 'xp', 'messages', 'voice_minutes'])
    .where('guild_id', '=', guildId)
    .where('position', '>', offset)
    .orderBy('position')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ userId: r.user_id, hidden: r.hidden, xp: r.xp, messages: r.messages, voiceMinutes: r.voice_minutes }));
}

export async function snapshotRank(db: Kysely<Database>, guildId: string, userId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('level_rank_snapshots')
    .select('position')
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.position;
}

/** Guilds whose ranked members reach `threshold`, so their ranks are worth a snapshot. */
export async function listLargeLevelGuilds(db: Kysely<Database>, threshold: number): Promise<string[]> {
  const rows = await sql<{ guild_id: string }>`
    SELECT g.id AS guild_id FROM guilds g
    WHERE (SELECT count(*) FROM (SELECT 1 FROM level_members m WHERE m.guild_id = g.id AND m.xp > 0 LIMIT ${threshold}) s) >= ${threshold}`.execute(db);
  return rows.rows.map((r) => r.guild_id);
}

/** Servers that have a rank snapshot now. */
export async function listSnapshotGuilds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('level_rank_snapshot_state').select('guild_id').execute();
  return rows.map((r) => r.guild_id);
}
