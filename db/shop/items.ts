import type { Kysely, Selectable } from 'kysely';
import type { Database, ShopItemsTable, ShopItemType } from '../schema.js';

export interface ShopItemRecord {
  id: number;
  storeId: number | null;
  name: string;
  description: string | null;
  emoji: string | null;
  price: number;
  type: ShopItemType;
  category: string | null;
  roleId: string | null;
  durationSec: number;
  consumable: boolean;
  fulfillment: boolean;
  stock: number | null;
  perUserLimit: number | null;
  requiredRoleIds: string[];
  minLevel: number;
  enabled: boolean;
  hidden: boolean;
  sortOrder: number;
}

export type ShopItemInput = Omit<ShopItemRecord, 'id'>;

const toRecord = (r: Selectable<ShopItemsTable>): ShopItemRecord => ({
  id: r.id,
  storeId: r.store_id,
  name: r.name,
  description: r.description,
  emoji: r.emoji,
  price: r.price,
  type: r.type,
  category: r.category,
  roleId: r.role_id,
  durationSec: r.duration_sec,
  consumable: r.consumable,
  fulfillment: r.fulfillment,
  stock: r.stock,
  perUserLimit: r.per_user_limit,
  requiredRoleIds: r.required_role_ids,
  minLevel: r.min_level,
  enabled: r.enabled,
  hidden: r.hidden,
  sortOrder: r.sort_order,
});

const toRow = (i: Partial<ShopItemInput>) => ({
  store_id: i.storeId,
  name: i.name,
  description: i.description,
  emoji: i.emoji,
  price: i.price,
  type: i.type,
  category: i.category,
  role_id: i.roleId,
  duration_sec: i.durationSec,
  consumable: i.consumable,
  fulfillment: i.fulfillment,
  stock: i.stock,
  per_user_limit: i.perUserLimit,
  required_role_ids: i.requiredRoleIds,
  min_level: i.minLevel,
  enabled: i.enabled,
  hidden: i.hidden,
  sort_order: i.sortOrder,
});

export interface ItemFilter {
  /** null = the Main store; undefined = every store. */
  storeId?: number | null;
  category?: string;
  includeDisabled: boolean;
}

/** Items in sort order (then id); hidden items included. */
export async function listItems(db: Kysely<Database>, guildId: string, f: ItemFilter): Promise<ShopItemRecord[]> {
  let query = db.selectFrom('shop_items').selectAll().where('guild_id', '=', guildId);
  if (f.storeId === null) query = query.where('store_id', 'is', null);
  else if (f.storeId !== undefined) query = query.where('store_id', '=', f.storeId);
  if (f.category !== undefined) query = query.where('category', '=', f.category);
  if (!f.includeDisabled) query = query.where('enabled', '=', true);
  const rows = await query.orderBy('sort_order').orderBy('id').execute();
  return rows.map(toRecord);
}

export async function findItem(db: Kysely<Database>, guildId: string, id: number): Promise<ShopItemRecord | undefined> {
  const row = await db.selectFrom('shop_items').selectAll().where('guild_id', '=', guildId).where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

/** The item with its row locked for the rest of the transaction. */
export async function lockItem(trx: Kysely<Database>, guildId: string, id: number): Promise<ShopItemRecord | undefined> {
  const row = await trx.selectFrom('shop_items').selectAll().where('guild_id', '=', guildId).where('id', '=', id).forUpdate().executeTakeFirst();
  return row && toRecord(row);
}

export async function insertItem(db: Kysely<Database>, guildId: string, i: ShopItemInput, at: Date): Promise<ShopItemRecord> {
  const row = await db
    .insertInto('shop_items')
    .values({ ...toRow(i), name: i.name, price: i.price, type: i.type, store_id: i.storeId, stock: i.stock, guild_id: guildId, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function updateItem(db: Kysely<Database>, guildId: string, id: number, i: Partial<ShopItemInput>, at: Date): Promise<ShopItemRecord | undefined> {
  const row = await db
    .updateTable('shop_items')
    .set({ ...toRow(i), updated_at: at })
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row && toRecord(row);
}

/**
 * Takes one unit: a conditional update, so concurrent buys of the last units never sell more than there are
 * (the row lock orders them; each re-checks `stock > 0`). True when taken, or when the stock became unlimited.
 */
export async function takeStock(trx: Kysely<Database>, itemId: number): Promise<boolean> {
  const result = await trx
    .updateTable('shop_items')
    .set((eb) => ({ stock: eb('stock', '-', 1) }))
    .where('id', '=', itemId)
    .where((eb) => eb.or([eb('stock', '>', 0), eb('stock', 'is', null)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Puts one unit back (a refund); an unlimited stock stays unlimited. */
export async function restoreStock(trx: Kysely<Database>, itemId: number): Promise<void> {
  await trx
    .updateTable('shop_items')
    .set((eb) => ({ stock: eb('stock', '+', 1) }))
    .where('id', '=', itemId)
    .where('stock', 'is not', null)
    .execute();
}

/** The roles that colour items of the server give: a member holds at most one of them (colour roles are exclusive). */
export async function listColorRoleIds(db: Kysely<Database>, guildId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('shop_items')
    .select('role_id')
    .distinct()
    .where('guild_id', '=', guildId)
    .where('type', '=', 'color')
    .where('role_id', 'is not', null)
    .execute();
  return rows.map((r) => r.role_id!);
}

/** Where a page of a sort-ordered list starts: after this (sortOrder, id). */
export interface SortKey {
  sortOrder: number;
  id: number;
}

/** One store's items in sort order (then id), disabled and hidden ones too, after `after` (keyset): the console's list. */
export async function listStoreItemPage(db: Kysely<Database>, guildId: string, f: { storeId: number | null; after?: SortKey; limit: number }): Promise<ShopItemRecord[]> {
  let query = db.selectFrom('shop_items').selectAll().where('guild_id', '=', guildId);
  query = f.storeId === null ? query.where('store_id', 'is', null) : query.where('store_id', '=', f.storeId);
  if (f.after) query = query.where((eb) => eb(eb.refTuple('sort_order', 'id'), '>', eb.tuple(f.after!.sortOrder, f.after!.id)));
  const rows = await query.orderBy('sort_order').orderBy('id').limit(f.limit).execute();
  return rows.map(toRecord);
}
