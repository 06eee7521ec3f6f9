import type { Kysely } from 'kysely';
import { findInviteCounts, ZERO_INVITES } from '../../db/invites/members.js';
import { findActiveSeason } from '../../db/invites/seasons.js';
import type { Database } from '../../db/schema.js';
import type { z } from '../core/zod.js';
import type { InviteLeaderboard, InviteLeaderboardQuery, InviteMember } from './contract.js';
import { inviteBoardPage, inviterRank, seasonBoardPage, seasonStanding, seasonSummary } from './leaderboard.js';

/** Pages stop here: past it a cursor is refused by the query schema anyway. */
const MAX_CURSOR = 10_000_000;

/** A member as an inviter: counts (zeros for one who invited nobody), rank and standing in the active season. */
export async function readInviteMember(db: Kysely<Database>, guildId: string, userId: string): Promise<z.infer<typeof InviteMember>> {
  const [counts, season] = await Promise.all([findInviteCounts(db, guildId, userId), findActiveSeason(db, guildId)]);
  const c = counts ?? ZERO_INVITES;
  return {
    userId,
    ...c,
    rank: (await inviterRank(db, guildId, c.invites)) ?? null,
    season: season ? await seasonStanding(db, season, userId) : null,
  };
}

/** One page of the all-time or the active season's board; the season's is empty while none is active. */
export async function readInviteLeaderboard(
  db: Kysely<Database>,
  guildId: string,
  query: z.output<typeof InviteLeaderboardQuery>,
): Promise<z.infer<typeof InviteLeaderboard>> {
  const season = await findActiveSeason(db, guildId);
  if (query.period === 'season' && !season) return { period: 'season' as const, season: null, items: [], total: 0, nextCursor: null };
  const { rows, total } =
    query.period === 'season' ? await seasonBoardPage(db, season!.id, query.cursor, query.limit) : await inviteBoardPage(db, guildId, query.cursor, query.limit);
  const next = query.cursor + rows.length;
  return {
    period: query.period,
    season: season ? seasonSummary(season) : null,
    items: rows.map((r) => ({ rank: r.rank, userId: r.userId, score: r.invites, invites: r.invites, verified: r.verified, bonus: r.bonus })),
    total,
    nextCursor: rows.length === query.limit && next < total && next <= MAX_CURSOR ? String(next) : null,
  };
}
