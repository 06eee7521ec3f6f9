import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface EntryRecord {
  userId: string;
  tickets: number;
  paid: number;
  enteredAt: Date;
}

/** Records an entry once; false when the member had already entered. */
export async function insertEntry(trx: Kysely<Database>, guildId: string, giveawayId: number, e: EntryRecord): Promise<boolean> {
  const result = await trx
    .insertInto('giveaway_entries')
    .values({ guild_id: guildId, giveaway_id: giveawayId, user_id: e.userId, tickets: e.tickets, paid: e.paid, entered_at: e.enteredAt })
    .onConflict((oc) => oc.columns(['guild_id', 'giveaway_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function findEntry(db: Kysely<Database>, guildId: string, giveawayId: number, userId: string): Promise<EntryRecord | undefined> {
  const row = await db
    .selectFrom('giveaway_entries')
    .select(['user_id', 'tickets', 'paid', 'entered_at'])
    .where('guild_id', '=', guildId)
    .where('giveaway_id', '=', giveawayId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && { userId: row.user_id, tickets: row.tickets, paid: row.paid, enteredAt: row.entered_at };
}

/** Removes entries and returns what they were (for refunds); every entry when `userId` is omitted. */
export async function deleteEntries(trx: Kysely<Database>, guildId: string, giveawayId: number, userId?: string): Promise<EntryRecord[]> {
  let query = trx.deleteFrom('giveaway_entries').where('guild_id', '=', guildId).where('giveaway_id', '=', giveawayId);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const rows = await query.returning(['user_id', 'tickets', 'paid', 'entered_at']).execute();
  return rows.map((r) => ({ userId: r.user_id, tickets: r.tickets, paid: r.paid, enteredAt: r.entered_at })).sort((a, b) => a.userId.localeCompare(b.userId));
}

/** Every entry of a giveaway (userId and tickets), for the draw. */
export async function listAllEntries(db: Kysely<Database>, guildId: string, giveawayId: number): Promise<Array<{ userId: string; tickets: number }>> {
  const rows = await db
    .selectFrom('giveaway_entries')
    .select(['user_id', 'tickets'])
    .where('guild_id', '=', guildId)
    .where('giveaway_id', '=', giveawayId)
    .execute();
  return rows.map((r) => ({ userId: r.user_id, tickets: r.tickets }));
}

/** One page of entries, first entered first (then by user id). */
export async function listEntries(
  db: Kysely<Database>,
  guildId: string,
  giveawayId: number,
  page: { offset: number; limit: number },
): Promise<EntryRecord[]> {
  const rows = await db
    .selectFrom('giveaway_entries')
    .select(['user_id', 'tickets', 'paid', 'entered_at'])
    .where('guild_id', '=', guildId)
    .where('giveaway_id', '=', giveawayId)
    .orderBy('entered_at')
    .orderBy('user_id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return rows.map((r) => ({ userId: r.user_id, tickets: r.tickets, paid: r.paid, enteredAt: r.entered_at }));
}

export interface EntryCounts {
  entrants: number;
  entries: number;
}

/** Entrants and tickets per giveaway, for a page of giveaways (zeros for those without entries). */
export async function countEntries(db: Kysely<Database>, guildId: string, giveawayIds: number[]): Promise<Map<number, EntryCounts>> {
  const counts = new Map<number, EntryCounts>(giveawayIds.map((id) => [id, { entrants: 0, entries: 0 }]));
  if (giveawayIds.length === 0) return counts;
  const rows = await db
    .selectFrom('giveaway_entries')
    .select((eb) => ['giveaway_id', eb.fn.countAll<string>().as('entrants'), eb.fn.sum<string>('tickets').as('entries')])
    .where('guild_id', '=', guildId)
    .where('giveaway_id', 'in', giveawayIds)
    .groupBy('giveaway_id')
    .execute();
  for (const r of rows) counts.set(r.giveaway_id, { entrants: Number(r.entrants), entries: Number(r.entries) });
  return counts;
}
