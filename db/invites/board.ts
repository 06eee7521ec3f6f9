import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.js';

/** Whose board: a server's all-time counts (invite_members) or one season's (invite_season_members). */
export type BoardScope = { guildId: string } | { seasonId: number };

export interface InviteBoardRow {
  userId: string;
  invites: number;
  verified: number;
  bonus: number;
}

/** `from <table> where <scope key> = ...`: every board table comes as a server's table and a season's. */
const inScope = (scope: BoardScope, tables: { guild: keyof Database; season: keyof Database }): RawBuilder<unknown> =>
  'guildId' in scope
    ? sql`${sql.table(tables.guild)} where guild_id = ${scope.guildId}`
    : sql`${sql.table(tables.season)} where season_id = ${scope.seasonId}`;

// Both member tables carry user_id, invites, verified and bonus and have a (scope, invites desc, user_id) index,
// so one set of queries serves both boards.
const scoped = (scope: BoardScope) => inScope(scope, { guild: 'invite_members', season: 'invite_season_members' });

/** One page of ranked inviters (invites > 0), most invites first, ties by user id. */
export async function listBoard(db: Kysely<Database>, scope: BoardScope, offset: number, limit: number): Promise<InviteBoardRow[]> {
  const { rows } = await sql<{ user_id: string; invites: number; verified: number; bonus: number }>`
    select user_id, invites, verified, bonus from ${scoped(scope)} and invites > 0
    order by invites desc, user_id offset ${offset} limit ${limit}`.execute(db);
  return rows.map((r) => ({ userId: r.user_id, invites: r.invites, verified: r.verified, bonus: r.bonus }));
}

// The members per invite count (invite_score_counts, kept by triggers; migration 2026-11-24-051): a rank sums a few
// thousand count rows at most, where counting the inviters took 60-300 ms on 1,000,000 of them.
const scoreCounts = (scope: BoardScope) => inScope(scope, { guild: 'invite_score_counts', season: 'invite_season_score_counts' });

// Their sum, one row per server or season, kept by the same transactions (migration 2026-11-30-140).
const scoreTotal = (scope: BoardScope) => inScope(scope, { guild: 'invite_score_totals', season: 'invite_season_score_totals' });

/** Ranked inviters (invites > 0). */
export async function countRanked(db: Kysely<Database>, scope: BoardScope): Promise<number> {
  const { rows } = await sql<{ members: string }>`select members from ${scoreTotal(scope)}`.execute(db);
  return Number(rows[0]?.members ?? 0);
}

/** Inviters with more invites than `invites`: a rank is this plus one, so ties share it. */
export async function countAbove(db: Kysely<Database>, scope: BoardScope, invites: number): Promise<number> {
  const { rows } = await sql<{ n: string | null }>`select sum(members) as n from ${scoreCounts(scope)} and invites > ${invites}`.execute(db);
  return Number(rows[0]!.n ?? 0);
}
