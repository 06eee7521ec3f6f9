import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { BoardSource, SnapshotTables } from './rankRecount.js';

/**
 * One ranked board that large servers read from a snapshot (levels by XP, invites by invites): where its scores
 * live and where its snapshot is kept. The snapshot's upkeep and reads below are the same for every board.
 */
export interface RankBoard<R extends SnapshotTables['rows'] = SnapshotTables['rows']> {
  source: BoardSource;
  snapshot: { rows: R; state: SnapshotTables['state'] };
}

export interface SnapshotState {
  total: number;
  refreshedAt: Date;
}

export async function findSnapshotState(db: Kysely<Database>, board: RankBoard, guildId: string): Promise<SnapshotState | undefined> {
  const row = await db.selectFrom(board.snapshot.state).select(['total', 'refreshed_at']).where('guild_id', '=', guildId).executeTakeFirst();
  return row && { total: row.total, refreshedAt: row.refreshed_at };
}

/**
 * The snapshot rows at positions `offset` + 1 to `offset` + `limit`, in position order. Positions run 1..total without
 * gaps, so the page names its range instead of "after `offset`": that plan reads `limit` rows whatever the table's
 * statistics say. They can say a server has no rows at all right after its first recount commits (an analyze ran
 * while the recount's rows were invisible), and "after `offset`, limit 25" was then a scan and sort of all ten
 * million: no first page for four seconds and more (docs/performance.md).
 */
export function snapshotPageQuery<R extends SnapshotTables['rows']>(db: Kysely<Database>, board: RankBoard<R>, guildId: string, offset: number, limit: number) {
  return db
    .selectFrom(board.snapshot.rows as SnapshotTables['rows'])
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('position', '>', offset)
    .where('position', '<=', offset + limit)
    .orderBy('position');
}

export async function snapshotRows<R extends SnapshotTables['rows']>(
  db: Kysely<Database>,
  board: RankBoard<R>,
  guildId: string,
  offset: number,
  limit: number,
): Promise<Selectable<Database[R]>[]> {
  return (await snapshotPageQuery(db, board, guildId, offset, limit).execute()) as Selectable<Database[R]>[];
}

export async function dropSnapshot(db: Kysely<Database>, board: RankBoard, guildId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom(board.snapshot.rows).where('guild_id', '=', guildId).execute();
    await trx.deleteFrom(board.snapshot.state).where('guild_id', '=', guildId).execute();
  });
}

/** Guilds whose ranked members (a score above 0) reach `threshold`, so their ranks are worth a snapshot. */
export async function listLargeGuilds(db: Kysely<Database>, board: RankBoard, threshold: number): Promise<string[]> {
  const { table, score } = board.source;
  const rows = await sql<{ guild_id: string }>`
    SELECT g.id AS guild_id FROM guilds g
    WHERE (SELECT count(*) FROM (SELECT 1 FROM ${sql.table(table)} m WHERE m.guild_id = g.id AND ${sql.ref(`m.${score}`)} > 0 LIMIT ${threshold}) s) >= ${threshold}`.execute(db);
  return rows.rows.map((r) => r.guild_id);
}

/**
 * Snapshots the ranks of every server that reached `threshold` (`refresh` recounts one) and drops the snapshots of
 * servers that shrank below it, whose ranks are then counted live again.
 */
export async function refreshLargeBoards(
  db: Kysely<Database>,
  board: RankBoard,
  threshold: number,
  refresh: (guildId: string) => Promise<unknown>,
): Promise<{ refreshed: number; dropped: number }> {
  const large = new Set(await listLargeGuilds(db, board, threshold));
  for (const guildId of large) await refresh(guildId);
  const withSnapshot = await db.selectFrom(board.snapshot.state).select('guild_id').execute();
  const shrunk = withSnapshot.map((r) => r.guild_id).filter((id) => !large.has(id));
  for (const guildId of shrunk) await dropSnapshot(db, board, guildId);
  return { refreshed: large.size, dropped: shrunk.length };
}
