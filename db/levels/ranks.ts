import { sql, type Kysely } from 'kysely';
import type { LeaderboardRow } from './members.js';
import type { Database } from '../schema.js';
import { boardRowsAfter, chunkOutcome, recountInChunks, RECOUNT_PACE, type BoardKey, type BoardSource, type Recount } from '../shared/rankRecount.js';

export interface RankSnapshotState {
  total: number;
  refreshedAt: Date;
}

export async function findRankSnapshot(db: Kysely<Database>, guildId: string): Promise<RankSnapshotState | undefined> {
  const row = await db.selectFrom('level_rank_snapshot_state').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  return row && { total: row.total, refreshedAt: row.refreshed_at };
}

/**
 * Recounts a guild's snapshot (db/shared/rankRecount.ts): readers see the old one until it commits, and only
 * positions whose row changed are written. A rank is the position (ties on XP are ordered by user id).
 */
export async function refreshRankSnapshot(db: Kysely<Database>, guildId: string, at: Date, pace = RECOUNT_PACE): Promise<Recount> {
  const snapshot = { rows: 'level_rank_snapshots', state: 'level_rank_snapshot_state', guildId, at } as const;
  return recountInChunks(db, snapshot, pace, (trx, offset, after, limit) => recountChunk(trx, guildId, offset, after, limit));
}

const LEVEL_BOARD: BoardSource = { table: 'level_members', score: 'xp', columns: ['hidden', 'messages', 'voice_minutes'] };

/** Writes one chunk of the board, skipping positions that already hold the same row. */
async function recountChunk(trx: Kysely<Database>, guildId: string, offset: number, after: BoardKey | undefined, limit: number) {
  const { rows } = await sql<{ n: string; written: string; score: string | null; user_id: string | null }>`
    with chunk as (
      select user_id, score as xp, hidden, messages, voice_minutes, ${offset} + row_number() over (order by score desc, user_id) as position
      from (${boardRowsAfter(LEVEL_BOARD, guildId, after, limit)}) c
    ),
    changed as (
      select c.* from chunk c
      left join level_rank_snapshots s
        on s.guild_id = ${guildId} and s.position between ${offset + 1} and ${offset + limit} and s.position = c.position
      where s.position is null
        or (s.user_id, s.xp, s.hidden, s.messages, s.voice_minutes) is distinct from (c.user_id, c.xp, c.hidden, c.messages, c.voice_minutes)
    ),
    upsert as (
      insert into level_rank_snapshots (guild_id, position, user_id, xp, hidden, messages, voice_minutes)
      select ${guildId}, position, user_id, xp, hidden, messages, voice_minutes from changed
      on conflict (guild_id, position) do update set
        user_id = excluded.user_id, xp = excluded.xp, hidden = excluded.hidden, messages = excluded.messages, voice_minutes = excluded.voice_minutes
      returning 1
    )
    select (select count(*) from chunk) as n, (select count(*) from upsert) as written, last.xp as score, last.user_id
    from (select 1) one left join (select xp, user_id from chunk order by position desc limit 1) last on true`.execute(trx);
  return chunkOutcome(rows[0]!, limit);
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
