import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { listLargeGuilds, type RankBoard } from './rankBoards.js';
import type { RankBoardName } from './tables.js';

export type { RankBoardName };

// The marks that say which rank snapshots need a recount (migration 2026-11-30-090): the triggers on the boards'
// member tables mark a snapshotted server dirty, the start relay wakes the recount dispatcher once per flip, and the
// dispatcher's pass takes the marks, recounts and lets them go.

/**
 * Claims the dirty marks no wake was sent for and runs `wake` before the claim commits: a wake that fails rolls the
 * claim back (the relay's next pass tries again), and two relays claim each flip once (the second waits on the row
 * and finds it woken). Returns how many marks the wake covered (0: nothing dirty, nothing sent).
 */
export async function claimUnwokenMarks(db: Kysely<Database>, wake: () => Promise<void>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx.updateTable('rank_marks').set({ woken: true }).where('dirty_since', 'is not', null).where('woken', '=', false).returning('guild_id').execute();
    if (claimed.length > 0) await wake();
    return claimed.length;
  });
}

/**
 * Marks dirty each server that reached `threshold` on the board and has no mark yet (a server grown large, or every
 * large one after a database crash emptied the unlogged tables); returns how many.
 */
export async function markNewLargeGuilds(db: Kysely<Database>, name: RankBoardName, board: RankBoard, threshold: number, at: Date): Promise<number> {
  const large = await listLargeGuilds(db, board, threshold);
  if (large.length === 0) return 0;
  const added = await db
    .insertInto('rank_marks')
    .values(large.map((guild_id) => ({ board: name, guild_id, dirty_since: at })))
    .onConflict((oc) => oc.columns(['board', 'guild_id']).doNothing())
    .executeTakeFirst();
  return Number(added.numInsertedOrUpdatedRows ?? 0n);
}

/**
 * Takes the board's dirty marks (clean again from here: a change committed after this statement marks the server
 * anew, so the recount that follows, reading after it, never misses one) and returns every server due a recount: those
 * taken now, those a crashed pass took, and marked ones without a snapshot.
 */
export async function takeDirtyMarks(db: Kysely<Database>, name: RankBoardName, board: RankBoard): Promise<string[]> {
  await db.updateTable('rank_marks').set({ dirty_since: null, woken: false, recount_due: true }).where('board', '=', name).where('dirty_since', 'is not', null).execute();
  const { rows } = await sql<{ guild_id: string }>`
    SELECT m.guild_id FROM rank_marks m
    WHERE m.board = ${name} AND (m.recount_due OR NOT EXISTS (SELECT 1 FROM ${sql.table(board.snapshot.state)} s WHERE s.guild_id = m.guild_id))
    ORDER BY m.guild_id`.execute(db);
  return rows.map((r) => r.guild_id);
}

/** The recount committed: the mark is clean unless a change came since (that one's flip stays). */
export async function recountDone(db: Kysely<Database>, name: RankBoardName, guildId: string): Promise<void> {
  await db.updateTable('rank_marks').set({ recount_due: false }).where('board', '=', name).where('guild_id', '=', guildId).execute();
}

/** The server shrank below the threshold: its snapshot was dropped and it is marked no more. */
export async function forgetMark(db: Kysely<Database>, name: RankBoardName, guildId: string): Promise<void> {
  await db.deleteFrom('rank_marks').where('board', '=', name).where('guild_id', '=', guildId).execute();
}

/** True when the server has at least `threshold` members with a score above 0 on the board. */
export async function isLargeGuild(db: Kysely<Database>, board: RankBoard, guildId: string, threshold: number): Promise<boolean> {
  const { table, score } = board.source;
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM (SELECT 1 FROM ${sql.table(table)} m WHERE m.guild_id = ${guildId} AND ${sql.ref(`m.${score}`)} > 0 LIMIT ${threshold}) s`.execute(db);
  return Number(rows[0]!.n) >= threshold;
}
