import type { Kysely } from 'kysely';
import { listLatestActions } from '../../db/giveaways/actions.js';
import { listDraws } from '../../db/giveaways/draws.js';
import { countEntries, listEntries } from '../../db/giveaways/entries.js';
import { findGiveaway, listGiveaways, type GiveawayRecord, type GiveawayStatus } from '../../db/giveaways/giveaways.js';
import type { Database } from '../../db/schema.js';
import { giveawayNotFound } from '../core/errors.js';
import type { GiveawayDetailBody, GiveawayDrawResultBody, GiveawayEntriesBody } from './contract.js';
import { nextPageOf, toEntrantBody, toGiveawayBody, toGiveawayDetailBody } from './giveawayViews.js';

/** How many of the latest bot actions a giveaway's detail shows. */
export const LATEST_ACTIONS = 20;

/** A giveaway of the server; GIVEAWAY_NOT_FOUND for any other id. */
export async function requireGiveaway(db: Kysely<Database>, guildId: string, giveawayId: number): Promise<GiveawayRecord> {
  const g = await findGiveaway(db, guildId, giveawayId);
  if (!g) throw giveawayNotFound();
  return g;
}

/** A giveaway with its entry counts, draws and latest bot actions; GIVEAWAY_NOT_FOUND for an unknown id. */
export async function readGiveawayDetail(db: Kysely<Database>, guildId: string, giveawayId: number): Promise<GiveawayDetailBody> {
  const g = await requireGiveaway(db, guildId, giveawayId);
  const counts = (await countEntries(db, guildId, [g.id])).get(g.id)!;
  return toGiveawayDetailBody(g, counts, await listDraws(db, guildId, g.id), await listLatestActions(db, guildId, g.id, LATEST_ACTIONS));
}

export async function readGiveawayPage(db: Kysely<Database>, guildId: string, q: { status?: GiveawayStatus | 'open'; page: number; limit: number }) {
  const { items, total } = await listGiveaways(db, guildId, { status: q.status, offset: (q.page - 1) * q.limit, limit: q.limit });
  const counts = await countEntries(db, guildId, items.map((g) => g.id));
  return { items: items.map((g) => toGiveawayBody(g, counts.get(g.id)!)), total, page: q.page, nextPage: nextPageOf(q.page, q.limit, total) };
}

/** One page of a giveaway's entrants, first entered first; GIVEAWAY_NOT_FOUND for an unknown id. */
export async function readGiveawayEntries(
  db: Kysely<Database>,
  guildId: string,
  giveawayId: number,
  q: { page: number; limit: number },
): Promise<GiveawayEntriesBody> {
  const g = await requireGiveaway(db, guildId, giveawayId);
  const { entrants } = (await countEntries(db, g.guildId, [g.id])).get(g.id)!;
  const items = await listEntries(db, g.guildId, g.id, { offset: (q.page - 1) * q.limit, limit: q.limit });
  return { items: items.map(toEntrantBody), total: entrants, page: q.page, nextPage: nextPageOf(q.page, q.limit, entrants) };
}

/** How many draws a giveaway has had (the next reroll's draw follows the last). */
export async function countDraws(db: Kysely<Database>, guildId: string, giveawayId: number): Promise<number> {
  return (await listDraws(db, guildId, giveawayId)).length;
}

/** A giveaway after one of its draws, with that draw. */
export async function readDrawResult(db: Kysely<Database>, guildId: string, giveawayId: number, drawNumber: number): Promise<GiveawayDrawResultBody> {
  const giveaway = await readGiveawayDetail(db, guildId, giveawayId);
  return { giveaway, draw: giveaway.draws.find((d) => d.drawNumber === drawNumber)! };
}
