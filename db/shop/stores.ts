import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface StoreRecord {
  id: number;
  name: string;
  emoji: string | null;
  description: string | null;
  color: string | null;
  enabled: boolean;
  channelIds: string[];
  sortOrder: number;
}

export type StoreInput = Omit<StoreRecord, 'id'>;

const columns = ['id', 'name', 'emoji', 'description', 'color', 'enabled', 'channel_ids', 'sort_order'] as const;

const toRecord = (r: { id: number; name: string; emoji: string | null; description: string | null; color: string | null; enabled: boolean; channel_ids: string[]; sort_order: number }): StoreRecord => ({
  id: r.id,
  name: r.name,
  emoji: r.emoji,
  description: r.description,
  color: r.color,
  enabled: r.enabled,
  channelIds: r.channel_ids,
  sortOrder: r.sort_order,
});

const toRow = (s: Partial<StoreInput>) => ({
  name: s.name,
  emoji: s.emoji,
  description: s.description,
  color: s.color,
  enabled: s.enabled,
  channel_ids: s.channelIds,
  sort_order: s.sortOrder,
});

/** The server's own stores in console order (the built-in Main store has no row). */
export async function listStores(db: Kysely<Database>, guildId: string): Promise<StoreRecord[]> {
  const rows = await db.selectFrom('shop_stores').select(columns).where('guild_id', '=', guildId).orderBy('sort_order').orderBy('id').execute();
  return rows.map(toRecord);
}

export async function findStore(db: Kysely<Database>, guildId: string, id: number): Promise<StoreRecord | undefined> {
  const row = await db.selectFrom('shop_stores').select(columns).where('guild_id', '=', guildId).where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

export async function insertStore(db: Kysely<Database>, guildId: string, s: StoreInput, at: Date): Promise<StoreRecord> {
  const row = await db
    .insertInto('shop_stores')
    .values({ ...toRow(s), name: s.name, guild_id: guildId, created_at: at })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function updateStore(db: Kysely<Database>, guildId: string, id: number, s: Partial<StoreInput>): Promise<StoreRecord | undefined> {
  const row = await db.updateTable('shop_stores').set(toRow(s)).where('guild_id', '=', guildId).where('id', '=', id).returning(columns).executeTakeFirst();
  return row && toRecord(row);
}

/** The server's stores in console order after `after` (keyset on sort order, then id). */
export async function listStorePage(db: Kysely<Database>, guildId: string, f: { after?: { sortOrder: number; id: number }; limit: number }): Promise<StoreRecord[]> {
  let query = db.selectFrom('shop_stores').select(columns).where('guild_id', '=', guildId);
  if (f.after) query = query.where((eb) => eb(eb.refTuple('sort_order', 'id'), '>', eb.tuple(f.after!.sortOrder, f.after!.id)));
  const rows = await query.orderBy('sort_order').orderBy('id').limit(f.limit).execute();
  return rows.map(toRecord);
}

/** Listed items (enabled, hidden included) per store; the Main store's count under the key null. */
export async function countListedItems(db: Kysely<Database>, guildId: string): Promise<Map<number | null, number>> {
  const rows = await db
    .selectFrom('shop_items')
    .select(['store_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('guild_id', '=', guildId)
    .where('enabled', '=', true)
    .groupBy('store_id')
    .execute();
  return new Map(rows.map((r) => [r.store_id, Number(r.n)]));
}

export interface CategoryRecord {
  name: string;
  sortOrder: number;
}

export async function listCategories(db: Kysely<Database>, guildId: string): Promise<CategoryRecord[]> {
  const rows = await db.selectFrom('shop_categories').select(['name', 'sort_order']).where('guild_id', '=', guildId).orderBy('sort_order').orderBy('name').execute();
  return rows.map((r) => ({ name: r.name, sortOrder: r.sort_order }));
}

/** Creates the category or, when it exists, sets its sort order. */
export async function saveCategory(db: Kysely<Database>, guildId: string, c: CategoryRecord): Promise<void> {
  await db
    .insertInto('shop_categories')
    .values({ guild_id: guildId, name: c.name, sort_order: c.sortOrder })
    .onConflict((oc) => oc.columns(['guild_id', 'name']).doUpdateSet({ sort_order: c.sortOrder }))
    .execute();
}

/** Renames a category and moves its items with it, in the caller's transaction; false when it does not exist. */
export async function renameCategory(trx: Kysely<Database>, guildId: string, from: string, to: string): Promise<boolean> {
  const renamed = await trx.updateTable('shop_categories').set({ name: to }).where('guild_id', '=', guildId).where('name', '=', from).executeTakeFirst();
  if (renamed.numUpdatedRows === 0n) return false;
  await trx.updateTable('shop_items').set({ category: to }).where('guild_id', '=', guildId).where('category', '=', from).execute();
  return true;
}
