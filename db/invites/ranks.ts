import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { findSnapshotState, snapshotRows, type RankBoard, type SnapshotState } from '../shared/rankBoards.js';
import { boardRowsAfter, chunkOutcome, recountInChunks, RECOUNT_PACE, type BoardKey, type Recount } from '../shared/rankRecount.js';

/** The all-time invites board: inviters by invites, snapshotted for large servers. */
export const INVITE_RANKS: RankBoard<'invite_rank_snapshots'> = {
  source: { table: 'invite_members', score: 'invites', columns: ['verified', 'bonus'] },
  snapshot: { rows: 'invite_rank_snapshots', state: 'invite_rank_snapshot_state' },
};

export interface SnapshotBoardRow {
  rank: number;
  userId: string;
  invites: number;
  verified: number;
  bonus: number;
}

export const findInviteRankSnapshot = (db: Kysely<Database>, guildId: string): Promise<SnapshotState | undefined> =>
  findSnapshotState(db, INVITE_RANKS, guildId);

/**
 * Recomputes a guild's snapshot when its counts changed since the last one (the trigger of migration
 * 2026-11-24-052 marks the guild) or it has none; otherwise the snapshot stands. The mark is taken in its own
 * statement before the recount reads anything, so a change committed meanwhile marks the guild again (and a failed
 * recount puts the mark back). The recount (db/shared/rankRecount.ts) rewrites only positions whose row changed.
 */
export async function refreshInviteRankSnapshot(db: Kysely<Database>, guildId: string, at: Date, pace = RECOUNT_PACE): Promise<Recount> {
  const marked = await db.deleteFrom('invite_rank_dirty').where('guild_id', '=', guildId).executeTakeFirst();
  const current = marked.numDeletedRows === 0n ? await findInviteRankSnapshot(db, guildId) : undefined;
  if (current) return { total: current.total, written: 0 };
  try {
    return await recountInChunks(db, { ...INVITE_RANKS.snapshot, guildId, at }, pace, (trx, offset, after, limit) => recountChunk(trx, guildId, offset, after, limit));
  } catch (err) {
    await db.insertInto('invite_rank_dirty').values({ guild_id: guildId }).onConflict((oc) => oc.doNothing()).execute();
    throw err;
  }
}

/**
 * Writes one chunk of the board, skipping positions that already hold the same row. Ranks come from the per-count
 * tallies (members above + 1), which the recount's transaction sees consistent with the rows.
 */
async function recountChunk(trx: Kysely<Database>, guildId: string, offset: number, after: BoardKey | undefined, limit: number) {
  const { rows } = await sql<{ n: string; written: string; score: string | null; user_id: string | null }>`
    with chunk as (
      select user_id, score as invites, verified, bonus, ${offset} + row_number() over (order by score desc, user_id) as position
      from (${boardRowsAfter(INVITE_RANKS.source, guildId, after, limit)}) c
    ),
    ranks as (
      select invites, 1 + coalesce(sum(members) over (order by invites desc rows between unbounded preceding and 1 preceding), 0) as rank
      from invite_score_counts where guild_id = ${guildId} and invites >= (select min(invites) from chunk)
    ),
    changed as (
      select c.position, r.rank, c.user_id, c.invites, c.verified, c.bonus from chunk c join ranks r using (invites)
      left join invite_rank_snapshots s
        on s.guild_id = ${guildId} and s.position between ${offset + 1} and ${offset + limit} and s.position = c.position
      where s.position is null or (s.rank, s.user_id, s.invites, s.verified, s.bonus) is distinct from (r.rank, c.user_id, c.invites, c.verified, c.bonus)
    ),
    upsert as (
      insert into invite_rank_snapshots (guild_id, position, rank, user_id, invites, verified, bonus)
      select ${guildId}, position, rank, user_id, invites, verified, bonus from changed
      on conflict (guild_id, position) do update set
        rank = excluded.rank, user_id = excluded.user_id, invites = excluded.invites, verified = excluded.verified, bonus = excluded.bonus
      returning 1
    )
    select (select count(*) from chunk) as n, (select count(*) from upsert) as written, last.invites as score, last.user_id
    from (select 1) one left join (select invites, user_id from chunk order by position desc limit 1) last on true`.execute(trx);
  return chunkOutcome(rows[0]!, limit);
}

export async function inviteSnapshotPage(db: Kysely<Database>, guildId: string, offset: number, limit: number): Promise<SnapshotBoardRow[]> {
  const rows = await snapshotRows(db, INVITE_RANKS, guildId, offset, limit);
  return rows.map((r) => ({ rank: r.rank, userId: r.user_id, invites: r.invites, verified: r.verified, bonus: r.bonus }));
}
