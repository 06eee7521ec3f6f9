import type { Kysely } from 'kysely';
import { findRankSnapshot, snapshotPage, snapshotRank } from '../../db/levels/ranks.js';
import { countRanked, listLeaderboard, rankOf, type LeaderboardRow } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';

/**
 * From this many ranked members on, a server's ranks come from a snapshot recounted a minute after it changed
 * (workflow rankRecountDispatcher, docs/performance.md); below it they are counted live, which is cheap at that size.
 */
export const RANK_SNAPSHOT_THRESHOLD = 10_000;

export async function leaderboardPage(
  db: Kysely<Database>,
  guildId: string,
  offset: number,
  limit: number,
): Promise<{ rows: LeaderboardRow[]; total: number }> {
  const snapshot = await findRankSnapshot(db, guildId);
  if (snapshot) return { rows: await snapshotPage(db, guildId, offset, limit), total: snapshot.total };
  const [rows, total] = await Promise.all([listLeaderboard(db, guildId, offset, limit), countRanked(db, guildId)]);
  return { rows, total };
}

/** A member's rank by XP; undefined without XP. A member new to the snapshot is counted live once. */
export async function memberRank(db: Kysely<Database>, guildId: string, userId: string, xp: number): Promise<number | undefined> {
  if (xp <= 0) return undefined;
  if (await findRankSnapshot(db, guildId)) {
    const position = await snapshotRank(db, guildId, userId);
    if (position !== undefined) return position;
  }
  return rankOf(db, guildId, userId, xp);
}
