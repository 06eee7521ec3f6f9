import type { Kysely } from 'kysely';
import { findBankSettings, listTopBalances, type BankSettings } from '../../db/bank/accounts.js';
import type { Database } from '../../db/schema.js';
import type { MemberCache } from '../core/memberCache.js';
import type { Platform } from '../core/platform.js';
import { memberNames } from './memberNames.js';
import { readServerDirectory, type ServerDirectory } from './serverDirectory.js';

export const BANK_LEADERBOARD_PAGE = 25;

/** Where a leaderboard page starts: after the previous page's last row (keyset), whose rank numbers this page's. */
export interface LeaderCursor {
  rank: number;
  balance: number;
  userId: string;
}

export const leaderCursorText = (c: LeaderCursor) => `${c.rank}.${c.balance}.${c.userId}`;

/** The `after` query's cursor, or null when it is not one. */
export function parseLeaderCursor(text: string): LeaderCursor | null {
  const m = /^(\d{1,9})\.(\d{1,16})\.(\d{17,20})$/.exec(text);
  if (!m || !Number.isSafeInteger(Number(m[2]))) return null;
  return { rank: Number(m[1]), balance: Number(m[2]), userId: m[3]! };
}

export interface BankOverview {
  settings: BankSettings;
  directory: ServerDirectory;
  leaderboard: { items: Array<{ rank: number; userId: string; balance: number }>; next: LeaderCursor | null };
  names: Map<string, string>;
}

type Deps = { db: Kysely<Database>; platform: Platform; memberCache: MemberCache };

/**
 * The console's bank page: the settings with the server's channels to pick from, and one page of the leaderboard in
 * the API's order (balance, then user id), numbered as the API ranks it, with members' display names.
 */
export async function readBankOverview(deps: Deps, guildId: string, after: LeaderCursor | null): Promise<BankOverview> {
  const [settings, directory, rows] = await Promise.all([
    findBankSettings(deps.db, guildId),
    readServerDirectory(deps.platform, guildId),
    listTopBalances(deps.db, guildId, BANK_LEADERBOARD_PAGE + 1, after ?? undefined),
  ]);
  const items = rows.slice(0, BANK_LEADERBOARD_PAGE).map((r, i) => ({ rank: (after?.rank ?? 0) + i + 1, ...r }));
  const last = items.at(-1);
  const next = rows.length > BANK_LEADERBOARD_PAGE && last ? { rank: last.rank, balance: last.balance, userId: last.userId } : null;
  const names = await memberNames(deps.memberCache, guildId, items.map((r) => r.userId));
  return { settings, directory, leaderboard: { items, next }, names };
}
