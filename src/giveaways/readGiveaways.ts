import type { Kysely } from 'kysely';
import { listLatestActions } from '../../db/giveaways/actions.js';
import { listDraws } from '../../db/giveaways/draws.js';
import { countEntries } from '../../db/giveaways/entries.js';
import { findGiveaway, listGiveaways, type GiveawayStatus } from '../../db/giveaways/giveaways.js';
import type { Database } from '../../db/schema.js';
import type { GiveawayDetailBody } from './contract.js';
import { nextPageOf, toGiveawayBody, toGiveawayDetailBody } from './giveawayViews.js';

/** How many of the latest bot actions a giveaway's detail shows. */
export const LATEST_ACTIONS = 20;

export async function readGiveawayDetail(db: Kysely<Database>, guildId: string, giveawayId: number): Promise<GiveawayDetailBody | undefined> {
  const g = await findGiveaway(db, guildId, giveawayId);
  if (!g) return undefined;
  const counts = (await countEntries(db, guildId, [g.id])).get(g.id)!;
  return toGiveawayDetailBody(g, counts, await listDraws(db, guildId, g.id), await listLatestActions(db, guildId, g.id, LATEST_ACTIONS));
}

export async function readGiveawayPage(db: Kysely<Database>, guildId: string, q: { status?: GiveawayStatus | 'open'; page: number; limit: number }) {
  const { items, total } = await listGiveaways(db, guildId, { status: q.status, offset: (q.page - 1) * q.limit, limit: q.limit });
  const counts = await countEntries(db, guildId, items.map((g) => g.id));
  return { items: items.map((g) => toGiveawayBody(g, counts.get(g.id)!)), total, page: q.page, nextPage: nextPageOf(q.page, q.limit, total) };
}
