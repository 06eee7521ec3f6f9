import type { Kysely } from 'kysely';
import type { GuildRecord } from '../../db/guild/guilds.js';
import { findLevelSettings, listLevelRewards, type LevelReward, type LevelSettings } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import type { MemberCache } from '../core/memberCache.js';
import type { Platform } from '../core/platform.js';
import { readLevelLeaderboard } from '../levels/readLevels.js';
import { memberNames } from './memberNames.js';
import { readServerDirectory, type ServerDirectory } from './serverDirectory.js';

export const LEADERBOARD_PAGE = 25;

export interface LevelsOverview {
  settings: LevelSettings;
  /** The reward roles by level (at most LEVEL_LIMITS.rewards: shown whole). */
  rewards: LevelReward[];
  directory: ServerDirectory;
  /** The API's leaderboard page (the same reader as GET /levels/leaderboard), with members' display names. */
  leaderboard: Awaited<ReturnType<typeof readLevelLeaderboard>>;
  names: Map<string, string>;
}

/**
 * The console's levels page: the settings and reward roles with the server's channels and roles to pick from, and
 * one page of the leaderboard.
 */
export async function readLevelsOverview(
  deps: { db: Kysely<Database>; platform: Platform; memberCache: MemberCache },
  guild: GuildRecord,
  cursor: number,
): Promise<LevelsOverview> {
  const [settings, rewards, directory, leaderboard] = await Promise.all([
    findLevelSettings(deps.db, guild.id),
    listLevelRewards(deps.db, guild.id),
    readServerDirectory(deps.platform, guild.id),
    readLevelLeaderboard(deps.db, guild.id, { cursor, limit: LEADERBOARD_PAGE }),
  ]);
  const names = await memberNames(deps.memberCache, guild.id, leaderboard.items.flatMap((r) => (r.userId ? [r.userId] : [])));
  return { settings, rewards, directory, leaderboard, names };
}
