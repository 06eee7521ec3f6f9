import { sql, type Kysely, type RawBuilder } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../schema.js';

// The rank snapshots of large servers (levels and invites) are recounted the same way: the board index walked in
// chunks inside one repeatable-read transaction, resting between chunks, writing only the positions that changed.

/**
 * One chunk as its pace sees it: its time, the board rows it read and the snapshot rows it wrote, and the time the
 * fastest chunk of the same recount so far would have taken for as many rows (`ms` itself for the first chunk).
 */
export interface ChunkCost {
  ms: number;
  rows: number;
  written: number;
  fastestMs: number;
}

/** How a recount shares the machine: rows per statement, and what it does between two (given the last one's cost). */
export interface RecountPace {
  chunkRows: number;
  rest: (chunk: ChunkCost) => Promise<void>;
}

/** How much longer than the recount's fastest chunk a chunk may take before its rest stops growing with it. */
export const MAX_CONTENTION = 4;

/**
 * The rest after a chunk: as long as the chunk for one that only read, up to four times as long for one that
 * rewrote every position it covered, and that again times how much slower the chunk ran than the fastest one of
 * the recount (at most MAX_CONTENTION times). A chunk's writes cost the readers more than its time shows (WAL, index
 * entries, dirty pages written back later); and a chunk that runs slow waited for a core, so the readers are short
 * of cores too: the recount steps back while they are (at 10,000,000 rows on two loaded cores, a recount resting
 * only by its writes left the pages at p99 146-263 ms, docs/performance.md). On an idle machine a chunk that only
 * read runs about as fast as the fastest and rests as before; one that wrote runs slower and rests more, writes
 * being what the readers feel most.
 */
export function restMs({ ms, rows, written, fastestMs }: ChunkCost): number {
  const contention = Math.min(MAX_CONTENTION, ms / fastestMs);
  return ms * contention * (1 + (3 * written) / rows);
}

/**
 * Chunks of 10,000 rows take 50-150 ms of one core each; with rests in between the api keeps most of the machine,
 * where one statement held a core for 4-8 s at a stretch (`npm run bench -- --only invites-leaderboard`).
 */
export const RECOUNT_PACE: RecountPace = { chunkRows: 10_000, rest: (chunk) => sleep(restMs(chunk)) };

/** A place on a board: highest score first, ties by user id. */
export interface BoardKey {
  score: number;
  userId: string;
}

export interface RecountChunk {
  /** Board rows the chunk covered, and snapshot rows it wrote. */
  rows: number;
  written: number;
  /** Where the next chunk starts; undefined once the board is exhausted. */
  last: BoardKey | undefined;
}

/** A recount's outcome: ranked members, and snapshot rows written or removed (0 when a recount was skipped). */
export interface Recount {
  total: number;
  written: number;
}

/** A snapshot's tables: its rows by (guild_id, position), and its state (total, refreshed_at) by guild_id. */
export interface SnapshotTables {
  rows: 'level_rank_snapshots' | 'invite_rank_snapshots';
  state: 'level_rank_snapshot_state' | 'invite_rank_snapshot_state';
}

/** Writes the board rows after `after` at positions from `offset` + 1. */
export type RecountChunkStep = (trx: Kysely<Database>, offset: number, after: BoardKey | undefined, limit: number) => Promise<RecountChunk>;

/**
 * One recount: every chunk reads the same state (repeatable read), readers see the old snapshot until it commits,
 * and the recount takes one core at most (no parallel workers) and rests between chunks. Positions past the new
 * total are removed and the total recorded in the same transaction.
 */
export async function recountInChunks(
  db: Kysely<Database>,
  snapshot: SnapshotTables & { guildId: string; at: Date },
  pace: RecountPace,
  chunk: RecountChunkStep,
): Promise<Recount> {
  const { guildId, at } = snapshot;
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(trx);
      let total = 0;
      let written = 0;
      let after: BoardKey | undefined;
      let fastestPerRow = Infinity;
      for (;;) {
        const started = performance.now();
        const next = await chunk(trx, total, after, pace.chunkRows);
        total += next.rows;
        written += next.written;
        if (!next.last) break;
        after = next.last;
        const ms = performance.now() - started;
        fastestPerRow = Math.min(fastestPerRow, ms / next.rows);
        await pace.rest({ ms, rows: next.rows, written: next.written, fastestMs: fastestPerRow * next.rows });
      }
      const dropped = await sql`delete from ${sql.table(snapshot.rows)} where guild_id = ${guildId} and position > ${total}`.execute(trx);
      await sql`insert into ${sql.table(snapshot.state)} (guild_id, total, refreshed_at) values (${guildId}, ${total}, ${at})
        on conflict (guild_id) do update set total = excluded.total, refreshed_at = excluded.refreshed_at`.execute(trx);
      return { total, written: written + Number(dropped.numAffectedRows ?? 0n) };
    });
}

/** A board index on (scope, score desc, user_id) over the rows with a score above 0; fixed identifiers only. */
export interface BoardSource {
  table: 'level_members' | 'invite_members';
  score: 'xp' | 'invites';
  /** The columns a snapshot row copies besides user_id and the score. */
  columns: string[];
}

/**
 * The next `limit` board rows after `after` (the first ones without it), as `user_id`, `score` and the source's
 * columns. Two index seeks (the rest of the tie, then the lower scores) instead of a row comparison, which the
 * index's mixed directions (score desc, user_id asc) could not seek to.
 */
export function boardRowsAfter(source: BoardSource, guildId: string, after: BoardKey | undefined, limit: number): RawBuilder<unknown> {
  const select = sql.raw(`select user_id, ${source.score} as score, ${source.columns.join(', ')} from ${source.table}`);
  const score = sql.raw(source.score);
  if (!after) return sql`${select} where guild_id = ${guildId} and ${score} > 0 order by ${score} desc, user_id limit ${limit}`;
  return sql`select * from (
    (${select} where guild_id = ${guildId} and ${score} > 0 and ${score} = ${after.score} and user_id > ${after.userId}
      order by user_id limit ${limit})
    union all
    (${select} where guild_id = ${guildId} and ${score} > 0 and ${score} < ${after.score}
      order by ${score} desc, user_id limit ${limit})
  ) next order by score desc, user_id limit ${limit}`;
}

/** Reads a chunk statement's closing row: how many rows, how many written, and the last one's key. */
export function chunkOutcome(row: { n: string; written: string; score: string | null; user_id: string | null }, limit: number): RecountChunk {
  const rows = Number(row.n);
  const last = rows === limit && row.user_id !== null ? { score: Number(row.score), userId: row.user_id } : undefined;
  return { rows, written: Number(row.written), last };
}
