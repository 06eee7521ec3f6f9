import { sql } from 'kysely';
import { createGiveawaysActivities } from '../../activities/giveaways.js';
import { findDraw } from '../../db/giveaways/draws.js';
import { DEFAULT_GIVEAWAY_SETTINGS } from '../../db/giveaways/settings.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { BENCH_GUILD_ID, FIRST_MEMBER_ID } from '../seed.js';
import type { ScenarioContext } from './context.js';

export interface GiveawaysDrawResult {
  scenario: 'draw';
  entrants: number;
  entries: number;
  winners: number;
  /** The draw activity as the worker runs it: entries closed, entrants ranked, checked with the platform down the draw order until enough win, stored. */
  drawActivityMs: number;
  /** Member look-ups the draw made (the draw record's `checkedEntrants`). */
  checkedEntrants: number;
  /** The same draw again: a retry finds the stored draw. */
  retryMs: number;
}

const WINNERS = 50;

/**
 * A draw over every bench member (100,000 by default) as entrants, a tenth with a 5-ticket bonus role and a
 * further fifth with a 3-ticket one: the time of the draw activity, run in this process against the bench
 * database and the local platform (member look-ups only down the draw order, in batches of at most 32).
 */
export async function runGiveawaysDraw(ctx: ScenarioContext): Promise<GiveawaysDrawResult> {
  const body = GiveawayStartRequest.parse({ channelId: '1200000000000000222', prize: 'Draw bench', winners: WINNERS, durationSeconds: 60 });
  const g = await ctx.db
    .transaction()
    .execute((trx) => createGiveaway(trx, { guildId: BENCH_GUILD_ID, body, defaultHostId: '1200000000000000002', settings: DEFAULT_GIVEAWAY_SETTINGS, at: new Date(), actor: { type: 'system' } }));
  await ctx.db.updateTable('giveaways').set({ status: 'active' }).where('guild_id', '=', BENCH_GUILD_ID).where('id', '=', g.id).execute();
  await sql`
    INSERT INTO giveaway_entries (guild_id, giveaway_id, user_id, tickets, paid, entered_at)
    SELECT ${BENCH_GUILD_ID}, ${g.id}, (${String(FIRST_MEMBER_ID)}::numeric + i)::text,
           CASE WHEN i % 10 = 0 THEN 5 WHEN i % 5 = 1 THEN 3 ELSE 1 END, 0, now()
    FROM generate_series(0, ${ctx.members - 1}) AS i`.execute(ctx.db);
  const activities = createGiveawaysActivities({
    db: ctx.db,
    platform: createLocalPlatform(ctx.db),
    clock: systemClock,
    logger: createLogger('silent', 'bench-draw'),
    temporal: ctx.temporal,
    webhooks: { allowInsecureLocal: false },
  });
  const started = performance.now();
  const outcome = await activities.endGiveaway(BENCH_GUILD_ID, g.id, null);
  const drawActivityMs = Math.round(performance.now() - started);
  const retryStarted = performance.now();
  await activities.endGiveaway(BENCH_GUILD_ID, g.id, null);
  const retryMs = Math.round(performance.now() - retryStarted);
  const { n } = await ctx.db
    .selectFrom('giveaway_entries')
    .select((eb) => eb.fn.sum<string>('tickets').as('n'))
    .where('guild_id', '=', BENCH_GUILD_ID)
    .where('giveaway_id', '=', g.id)
    .executeTakeFirstOrThrow();
  const checkedEntrants = (await findDraw(ctx.db, BENCH_GUILD_ID, g.id, 1))!.checkedEntrants;
  return { scenario: 'draw', entrants: ctx.members, entries: Number(n), winners: outcome.winnerIds.length, drawActivityMs, checkedEntrants, retryMs };
}
