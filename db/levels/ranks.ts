import { sql, type Kysely } from 'kysely';
import type { LeaderboardRow } from './members.js';
import type { Database } from '../schema.js';
import { findSnapshotState, snapshotRows, type RankBoard, type SnapshotState } from '../shared/rankBoards.js';
import { boardRowsAfter, chunkOutcome, recountInChunks, RECOUNT_PACE, type BoardKey, type Recount } from '../shared/rankRecount.js';

/** The levels board: members by XP, snapshotted for large servers. */
export const LEVEL_RANKS: RankBoard<'level_rank_snapshots'> = {
  source: { table: 'level_members', score: 'xp', columns: ['hidden', 'messages', 'voice_minutes'] },
  snapshot: { rows: 'level_rank_snapshots', state: 'level_rank_snapshot_state' },
};

export const findRankSnapshot = (db: Kysely<Database>, guildId: string): Promise<SnapshotState | undefined> => findSnapshotState(db, LEVEL_RANKS, guildId);

/**
 * Recounts a guild's snapshot (db/shared/rankRecount.ts): readers see the old one until it commits, and only
 * positions whose row changed are written. A rank is the position (ties on XP are ordered by user id).
 */
export async function refreshRankSnapshot(db: Kysely<Database>, guildId: string, at: Date, pace = RECOUNT_PACE): Promise<Recount> {
  return recountInChunks(db, { ...LEVEL_RANKS.snapshot, guildId, at }, pace, (trx, offset, after, limit) => recountChunk(trx, guildId, offset, after, limit));
}

/** Writes one chunk of the board, skipping positions that already hold the same row. */
async function recountChunk(trx: Kysely<Database>, guildId: string, offset: number, after: BoardKey | undefined, limit: number) {
  const { rows } = await sql<{ n: string; written: string; score: string | null; user_id: string | null }>`
    with chunk as (
      select user_id, score as xp, hidden, messages, voice_minutes, ${offset} + row_number() over (order by score desc, user_id) as position
      from (${boardRowsAfter(LEVEL_RANKS.source, guildId, after, limit)}) c
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

export async function snapshotPage(db: Kysely<Database>, guildId: string, offset: number, limit: number): Promise<LeaderboardRow[]> {
  const rows = await snapshotRows(db, LEVEL_RANKS, guildId, offset, limit);
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
