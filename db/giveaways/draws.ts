import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { GiveawayDrawsTable } from './tables.js';

export interface DrawRecord {
  drawNumber: number;
  kind: 'end' | 'reroll';
  requested: number;
  winnerIds: string[];
  replacedUserIds: string[];
  /** Entrants the draw ranked (everyone who entered, less earlier winners) and their tickets. */
  entrants: number;
  entries: number;
  /** Entrants checked with the platform (membership, blocked roles) before the winners were found. */
  checkedEntrants: number;
  shortfall: number;
  algorithm: string;
  drawnAt: Date;
}

const toRecord = (r: Selectable<GiveawayDrawsTable>): DrawRecord => ({
  drawNumber: r.draw_number,
  kind: r.kind,
  requested: r.requested,
  winnerIds: r.winner_ids,
  replacedUserIds: r.replaced_user_ids,
  entrants: r.entrants,
  entries: Number(r.entries),
  checkedEntrants: r.checked_entrants,
  shortfall: r.shortfall,
  algorithm: r.algorithm,
  drawnAt: r.drawn_at,
});

/** Stores a draw once per (giveaway, draw number); false when that draw was already stored. */
export async function insertDraw(trx: Kysely<Database>, guildId: string, giveawayId: number, d: DrawRecord): Promise<boolean> {
  const result = await trx
    .insertInto('giveaway_draws')
    .values({
      guild_id: guildId,
      giveaway_id: giveawayId,
      draw_number: d.drawNumber,
      kind: d.kind,
      requested: d.requested,
      winner_ids: d.winnerIds,
      replaced_user_ids: d.replacedUserIds,
      entrants: d.entrants,
      entries: d.entries,
      checked_entrants: d.checkedEntrants,
      shortfall: d.shortfall,
      algorithm: d.algorithm,
      drawn_at: d.drawnAt,
    })
    .onConflict((oc) => oc.columns(['guild_id', 'giveaway_id', 'draw_number']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function findDraw(db: Kysely<Database>, guildId: string, giveawayId: number, drawNumber: number): Promise<DrawRecord | undefined> {
  const row = await db
    .selectFrom('giveaway_draws')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('giveaway_id', '=', giveawayId)
    .where('draw_number', '=', drawNumber)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** Every draw of a giveaway, first first. */
export async function listDraws(db: Kysely<Database>, guildId: string, giveawayId: number): Promise<DrawRecord[]> {
  const rows = await db
    .selectFrom('giveaway_draws')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('giveaway_id', '=', giveawayId)
    .orderBy('draw_number')
    .execute();
  return rows.map(toRecord);
}
