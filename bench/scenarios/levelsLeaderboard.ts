import { sql, type Kysely } from 'kysely';
import { findRankSnapshot, refreshRankSnapshot } from '../../db/levels/ranks.js';
import type { Database } from '../../db/schema.js';
import { runLoad, type LoadResult } from '../load.js';
import { BENCH_GUILD_ID, FIRST_MEMBER_ID } from '../seed.js';
import type { ScenarioContext } from './context.js';
import { duringRecount, randomSeededMembers } from './duringRecount.js';
import { seedMemberRows } from '../seedRows.js';
import { SEEDING_PACE } from './seedingPace.js';

const MOVED_MEMBERS = 1_000;
const RECOUNT_LOAD_SECONDS = 4;
const WARM_UP_SECONDS = 2;

export interface LeaderboardResult {
  scenario: 'leaderboard';
  /** Ranked rows of the bench guild the pages were read from (`--rows`). */
  levelRows: number;
  pages: Record<string, LoadResult>;
}

/** Deep pages are read at nine tenths of the board, as the first sizes did (900,000 of 1,000,000). */
export const deepCursor = (rows: number) => Math.min(10_000_000, Math.floor(rows * 0.9));

/**
 * `rows` level rows in the bench guild (seeded once per size; a member's XP is a spread-out function of its index),
 * and their rank snapshot computed, as the recount dispatcher does a minute after such a server changed.
 */
export async function seedLevelRows(db: Kysely<Database>, rows: number, log: (line: string) => void): Promise<number> {
  const first = sql.lit(FIRST_MEMBER_ID.toString());
  const seeded = await seedMemberRows(db, {
    table: 'level_members',
    rows,
    log,
    insertChunk: async (from, to) => {
      await sql`
      INSERT INTO level_members (guild_id, user_id, xp, messages, voice_minutes, hidden, last_xp_at)
      SELECT ${BENCH_GUILD_ID}, (${first}::numeric + i)::text, 1 + (i::bigint * 7919) % 5000000, i % 5000, i % 300, i % 97 = 0, now()
      FROM generate_series(${from}::bigint, ${to}::bigint) AS i
      ON CONFLICT DO NOTHING`.execute(db);
    },
  });
  // A snapshot of every row (left by an earlier run) is reused: at 10,000,000 rows a recount takes minutes.
  const snapshot = await findRankSnapshot(db, BENCH_GUILD_ID);
  const { n } = await db
    .selectFrom('level_rank_snapshots')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('guild_id', '=', BENCH_GUILD_ID)
    .executeTakeFirstOrThrow();
  if (snapshot?.total === seeded && Number(n) === seeded) return seeded;
  const started = performance.now();
  // Unpaced: nothing is measured yet.
  const { written } = await refreshRankSnapshot(db, BENCH_GUILD_ID, new Date(), SEEDING_PACE);
  log(`rank snapshot of ${seeded.toLocaleString('en-US')} members refreshed in ${Math.round(performance.now() - started)} ms, ` +
    `${written.toLocaleString('en-US')} rows written`);
  return seeded;
}

/** GETs of one path from 10 clients with the bench key, for the scenario's duration unless told otherwise. */
export const readLoad =
  (ctx: ScenarioContext) =>
  (target: string, durationSeconds = ctx.durationSeconds): Promise<LoadResult> =>
    runLoad({
      url: ctx.fullUrl,
      connections: 10,
      durationSeconds,
      headers: { Authorization: `Bearer ${ctx.apiKey}` },
      setupRequest: (req) => ({ ...req, path: target }),
    });

/**
 * Leaderboard pages at cursor 0, 10,000 and nine tenths of `--rows` and a deep member's rank, each under load; then the first page and
 * the rank again while the snapshot is recounted after 1,000 members moved.
 */
export async function runLeaderboard(ctx: ScenarioContext): Promise<LeaderboardResult> {
  const levelRows = await seedLevelRows(ctx.db, ctx.leaderboardRows, (line) => console.log(`[bench] ${line}`));
  const deep = deepCursor(levelRows);
  const path = (suffix: string) => `/api/v1/guilds/${BENCH_GUILD_ID}/levels/${suffix}`;
  const targets: Record<string, string> = {
    'page@0': path('leaderboard?limit=25&cursor=0'),
    'page@10000': path('leaderboard?limit=25&cursor=10000'),
    [`page@${deep}`]: path(`leaderboard?limit=25&cursor=${deep}`),
    'member rank': path(`members/${(FIRST_MEMBER_ID + 123_457n).toString()}`),
  };
  const load = readLoad(ctx);
  const pages: Record<string, LoadResult> = {};
  // Not measured: the first seconds of load after seeding run on a cold JIT, pool and plan cache (p99 69 ms on the
  // first page at 10,000,000 rows, 17-27 ms on every page after it).
  await load(targets['page@0']!, WARM_UP_SECONDS);
  for (const [name, target] of Object.entries(targets)) pages[name] = await load(target);

  // A minute in which members earned XP, recounted as the recount dispatcher does while pages are read.
  await sql`UPDATE level_members SET xp = xp + 1000
    WHERE guild_id = ${BENCH_GUILD_ID} AND user_id IN (${randomSeededMembers(MOVED_MEMBERS, levelRows)})`.execute(ctx.db);
  const log = (line: string) => console.log(`[bench] ${line}`);
  const what = `level rank recount of ${levelRows.toLocaleString('en-US')} members after ${MOVED_MEMBERS.toLocaleString('en-US')} moved`;
  await duringRecount(() => refreshRankSnapshot(ctx.db, BENCH_GUILD_ID, new Date()), what, log, async () => {
    pages['page@0 during a recount'] = await load(targets['page@0']!, RECOUNT_LOAD_SECONDS);
    pages['member rank during a recount'] = await load(targets['member rank']!, RECOUNT_LOAD_SECONDS);
  });
  return { scenario: 'leaderboard', levelRows, pages };
}
