import type { Kysely } from 'kysely';
import { findLevelMember } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import type { z } from '../core/zod.js';
import type { LevelLeaderboard, LevelLeaderboardQuery, LevelMember } from './contract.js';
import { levelFromXp } from './curve.js';
import { leaderboardPage, memberRank } from './leaderboard.js';

/** Pages stop here: past it a cursor is refused by the query schema anyway. */
const MAX_CURSOR = 10_000_000;

/** A member on the level curve, with their rank; a member without activity gets zeros. */
export async function readLevelMember(db: Kysely<Database>, guildId: string, userId: string): Promise<z.infer<typeof LevelMember>> {
  const row = await findLevelMember(db, guildId, userId);
  const xp = row?.xp ?? 0;
  const position = levelFromXp(xp);
  return {
    userId,
    xp,
    level: position.level,
    xpIntoLevel: position.xpIntoLevel,
    xpForNext: position.xpForNext,
    progress: position.progress,
    messages: row?.messages ?? 0,
    voiceMinutes: row?.voiceMinutes ?? 0,
    streak: row?.streak ?? 0,
    bestStreak: row?.bestStreak ?? 0,
    rank: (await memberRank(db, guildId, userId, xp)) ?? null,
    hidden: row?.hidden ?? false,
    lastXpAt: row?.lastXpAt?.toISOString() ?? null,
  };
}

/** One page of the leaderboard, highest XP first; members who hid themselves keep their rank without their id. */
export async function readLevelLeaderboard(
  db: Kysely<Database>,
  guildId: string,
  query: z.output<typeof LevelLeaderboardQuery>,
): Promise<z.infer<typeof LevelLeaderboard>> {
  const { rows, total } = await leaderboardPage(db, guildId, query.cursor, query.limit);
  const next = query.cursor + rows.length;
  return {
    items: rows.map((r, i) => ({
      rank: query.cursor + i + 1,
      userId: r.hidden ? null : r.userId,
      hidden: r.hidden,
      xp: r.xp,
      level: levelFromXp(r.xp).level,
      messages: r.messages,
      voiceMinutes: r.voiceMinutes,
    })),
    total,
    nextCursor: rows.length === query.limit && next < total && next <= MAX_CURSOR ? String(next) : null,
  };
}
