import type { Kysely } from 'kysely';
import { countAbove, countRanked, listBoard, type BoardScope, type InviteBoardRow } from '../../db/invites/board.js';
import { findSeasonInvites, type InviteSeasonRecord } from '../../db/invites/seasons.js';
import { findInviteRankSnapshot, inviteSnapshotPage } from '../../db/invites/ranks.js';
import type { Database } from '../../db/schema.js';
import { pageRanks } from './ranking.js';

/**
 * From this many ranked inviters on, a server's all-time ranks come from a snapshot recounted a minute after it
 * changed (workflow rankRecountDispatcher, docs/performance.md); below it they are counted live, cheap at that size.
 */
export const INVITE_RANK_SNAPSHOT_THRESHOLD = 10_000;

export interface RankedInviteRow extends InviteBoardRow {
  rank: number;
}

/** One page of the all-time board with competition ranks (ties share a rank). */
export async function inviteBoardPage(
  db: Kysely<Database>,
  guildId: string,
  offset: number,
  limit: number,
): Promise<{ rows: RankedInviteRow[]; total: number }> {
  const snapshot = await findInviteRankSnapshot(db, guildId);
  if (snapshot) return { rows: await inviteSnapshotPage(db, guildId, offset, limit), total: snapshot.total };
  return liveBoardPage(db, { guildId }, offset, limit);
}

/**
 * A member's all-time rank, counted live from the per-count tallies (a sum over the distinct counts above theirs),
 * so it is exact at once on any server; undefined without invites. Only board pages of large servers come from
 * the snapshot.
 */
export async function inviterRank(db: Kysely<Database>, guildId: string, invites: number): Promise<number | undefined> {
  if (invites <= 0) return undefined;
  return (await countAbove(db, { guildId }, invites)) + 1;
}

/** One page of a season's board (its invites: verified joins in the window plus bonus added in it). */
export async function seasonBoardPage(
  db: Kysely<Database>,
  seasonId: number,
  offset: number,
  limit: number,
): Promise<{ rows: RankedInviteRow[]; total: number }> {
  return liveBoardPage(db, { seasonId }, offset, limit);
}

/** A page counted live, with competition ranks (ties share a rank, the next rank skips). */
async function liveBoardPage(db: Kysely<Database>, scope: BoardScope, offset: number, limit: number): Promise<{ rows: RankedInviteRow[]; total: number }> {
  const [rows, total] = await Promise.all([listBoard(db, scope, offset, limit), countRanked(db, scope)]);
  if (rows.length === 0) return { rows: [], total };
  const firstRank = offset === 0 ? 1 : (await countAbove(db, scope, rows[0]!.invites)) + 1;
  const ranks = pageRanks(
    rows.map((r) => r.invites),
    offset,
    firstRank,
  );
  return { rows: rows.map((r, i) => ({ ...r, rank: ranks[i]! })), total };
}

/** A member's standing in a season: invites and rank (undefined without invites). */
export async function seasonStanding(db: Kysely<Database>, season: InviteSeasonRecord, userId: string) {
  const invites = await findSeasonInvites(db, season.id, userId);
  const rank = invites > 0 ? (await countAbove(db, { seasonId: season.id }, invites)) + 1 : null;
  return { ...seasonSummary(season), invites, rank };
}

export const seasonSummary = (season: InviteSeasonRecord) => ({
  id: season.id,
  number: season.number,
  name: season.name,
  startsAt: season.startedAt.toISOString(),
  endsAt: season.endedAt?.toISOString() ?? null,
});
