import { sql, type Kysely } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../schema.js';

export interface SnapshotBoardRow {
  rank: number;
  userId: string;
  invites: number;
  verified: number;
  bonus: number;
}

export async function findInviteRankSnapshot(db: Kysely<Database>, guildId: string): Promise<{ total: number; refreshedAt: Date } | undefined> {
  const row = await db.selectFrom('invite_rank_snapshot_state').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  return row && { total: row.total, refreshedAt: row.refreshed_at };
}

/** How a recount shares the machine: rows per statement, and what it does between two (given the last one's time). */
export interface RecountPace {
  chunkRows: number;
  rest: (chunkMs: number) => Promise<void>;
}

/**
 * A chunk of 10,000 rows takes 50-150 ms of one core; resting twice as long leaves the api most of the machine for
 * the 20-25 s a recount of 1,000,000 inviters then takes, where one statement held a core for 4-8 s at a stretch
 * (page@0 p99 25 ms during the recount instead of 62-92 ms: `npm run bench -- --only invites-leaderboard`).
 */
export const RECOUNT_PACE: RecountPace = { chunkRows: 10_000, rest: (chunkMs) => sleep(chunkMs * 2) };

/**
 * Recomputes a guild's snapshot when its counts changed since the last one (the trigger of migration
 * 2026-11-24-052 marks the guild) or it has none; otherwise the snapshot stands and its total is returned. The mark
 * is taken in its own statement before the recount reads anything, so a change committed meanwhile marks the guild
 * again (and a failed recount puts the mark back).
 *
 * The recount walks the board index in chunks inside one repeatable-read transaction: every chunk reads the same
 * state, readers see the old snapshot until it commits, and it rests between chunks (`pace`). Only positions whose
 * row changed are written, so a minute in which a few members moved rewrites a few rows.
 */
export async function refreshInviteRankSnapshot(db: Kysely<Database>, guildId: string, at: Date, pace = RECOUNT_PACE): Promise<Recount> {
  const current = await findInviteRankSnapshot(db, guildId);
  const marked = await db.deleteFrom('invite_rank_dirty').where('guild_id', '=', guildId).executeTakeFirst();
  if (current && marked.numDeletedRows === 0n) return { total: current.total, written: 0 };
  try {
    return await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        // One core for maintenance: parallel workers would take every core from the api.
        await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(trx);
        let total = 0;
        let written = 0;
        let after: BoardKey | undefined;
        for (;;) {
          const started = performance.now();
          const chunk = await recountChunk(trx, guildId, total, after, pace.chunkRows);
          total += chunk.rows;
          written += chunk.written;
          if (!chunk.last) break;
          after = chunk.last;
          await pace.rest(performance.now() - started);
        }
        const dropped = await trx.deleteFrom('invite_rank_snapshots').where('guild_id', '=', guildId).where('position', '>', total).executeTakeFirst();
        await trx
          .insertInto('invite_rank_snapshot_state')
          .values({ guild_id: guildId, total, refreshed_at: at })
          .onConflict((oc) => oc.column('guild_id').doUpdateSet({ total, refreshed_at: at }))
          .execute();
        return { total, written: written + Number(dropped.numDeletedRows) };
      });
  } catch (err) {
    await db.insertInto('invite_rank_dirty').values({ guild_id: guildId }).onConflict((oc) => oc.doNothing()).execute();
    throw err;
  }
}

/** A recount's outcome: ranked inviters, and snapshot rows it wrote or removed (0 when it was skipped). */
export interface Recount {
  total: number;
  written: number;
}

/** A place on the board: most invites first, ties by user id. */
interface BoardKey {
  invites: number;
  userId: string;
}

/**
 * Writes the `limit` board rows after `after` at positions from `offset` + 1, skipping positions that already hold
 * the same row, and counts the rows it wrote. Ranks come from the per-count tallies (members above + 1), which the same transaction sees
 * consistent with the rows. `last` is undefined once the board is exhausted.
 */
async function recountChunk(
  trx: Kysely<Database>,
  guildId: string,
  offset: number,
  after: BoardKey | undefined,
  limit: number,
): Promise<{ rows: number; written: number; last: BoardKey | undefined }> {
  // Two index seeks (the rest of the tie, then the lower counts) instead of a row comparison, which the index's
  // mixed directions (invites desc, user_id asc) could not seek to.
  const next = after
    ? sql`(select user_id, invites, verified, bonus from invite_members
          where guild_id = ${guildId} and invites > 0 and invites = ${after.invites} and user_id > ${after.userId}
          order by user_id limit ${limit})
        union all
        (select user_id, invites, verified, bonus from invite_members
          where guild_id = ${guildId} and invites > 0 and invites < ${after.invites}
          order by invites desc, user_id limit ${limit})`
    : sql`select user_id, invites, verified, bonus from invite_members
          where guild_id = ${guildId} and invites > 0 order by invites desc, user_id limit ${limit}`;
  const { rows } = await sql<{ n: string; written: string; invites: string | null; user_id: string | null }>`
    with candidates as (${next}),
    chunk as (
      select user_id, invites, verified, bonus, ${offset} + row_number() over (order by invites desc, user_id) as position
      from (select * from candidates order by invites desc, user_id limit ${limit}) c
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
    select (select count(*) from chunk) as n, (select count(*) from upsert) as written, last.invites, last.user_id
    from (select 1) one left join (select invites, user_id from chunk order by position desc limit 1) last on true`.execute(trx);
  const row = rows[0]!;
  const count = Number(row.n);
  const last = count === limit && row.user_id !== null ? { invites: Number(row.invites), userId: row.user_id } : undefined;
  return { rows: count, written: Number(row.written), last };
}

export async function dropInviteRankSnapshot(db: Kysely<Database>, guildId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('invite_rank_snapshots').where('guild_id', '=', guildId).execute();
    await trx.deleteFrom('invite_rank_snapshot_state').where('guild_id', '=', guildId).execute();
  });
}

export async function inviteSnapshotPage(db: Kysely<Database>, guildId: string, offset: number, limit: number): Promise<SnapshotBoardRow[]> {
  const rows = await db
    .selectFrom('invite_rank_snapshots')
    .select(['rank', 'user_id', 'invites', 'verified', 'bonus'])
    .where('guild_id', '=', guildId)
    .where('position', '>', offset)
    .orderBy('position')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ rank: r.rank, userId: r.user_id, invites: r.invites, verified: r.verified, bonus: r.bonus }));
}

/** Guilds whose ranked inviters reach `threshold`, so their ranks are worth a snapshot. */
export async function listLargeInviteGuilds(db: Kysely<Database>, threshold: number): Promise<string[]> {
  const rows = await sql<{ guild_id: string }>`
    SELECT g.id AS guild_id FROM guilds g
    WHERE (SELECT count(*) FROM (SELECT 1 FROM invite_members m WHERE m.guild_id = g.id AND m.invites > 0 LIMIT ${threshold}) s) >= ${threshold}`.execute(db);
  return rows.rows.map((r) => r.guild_id);
}

export async function listInviteSnapshotGuilds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('invite_rank_snapshot_state').select('guild_id').execute();
  return rows.map((r) => r.guild_id);
}
