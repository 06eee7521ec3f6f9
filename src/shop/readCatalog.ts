import type { Kysely } from 'kysely';
import { findBankSettings } from '../../db/bank/accounts.js';
import type { Database } from '../../db/schema.js';
import { findItem, listStoreItemPage, type SortKey } from '../../db/shop/items.js';
import { countListedItems, findStore, listStorePage, listStores } from '../../db/shop/stores.js';
import { ShopRefusal } from './shopRefusal.js';

// The catalog as staff page through it in the console: every store and item, disabled ones too, in sort order.

/** A page's position as the link to the next one carries it: `<sortOrder>.<id>` of the last row shown. */
export const sortCursor = (last: SortKey) => `${last.sortOrder}.${last.id}`;

async function sortPage<T extends SortKey>(limit: number, fetch: (limit: number) => Promise<T[]>) {
  const rows = await fetch(limit + 1);
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? sortCursor(items.at(-1)!) : null };
}

/** The server's own stores after `after`, each with its count of listed items, and the Main store's count. */
export async function readStorePage(db: Kysely<Database>, guildId: string, page: { after?: SortKey; limit: number }) {
  const [stores, counts] = await Promise.all([sortPage(page.limit, (limit) => listStorePage(db, guildId, { after: page.after, limit })), countListedItems(db, guildId)]);
  return { ...stores, mainCount: counts.get(null) ?? 0, counts };
}

/** One store (null: Main) with a page of its items and the currency of their prices; STORE_NOT_FOUND for another server's. */
export async function readStoreItems(db: Kysely<Database>, guildId: string, storeId: number | null, page: { after?: SortKey; limit: number }) {
  const store = storeId === null ? null : await requireStore(db, guildId, storeId);
  const [items, settings] = await Promise.all([
    sortPage(page.limit, (limit) => listStoreItemPage(db, guildId, { storeId, after: page.after, limit })),
    findBankSettings(db, guildId),
  ]);
  return { store, ...items, currency: settings.currency };
}

export async function requireStore(db: Kysely<Database>, guildId: string, storeId: number) {
  const store = await findStore(db, guildId, storeId);
  if (!store) throw new ShopRefusal('STORE_NOT_FOUND', 'This server has no such store.');
  return store;
}

/** One item, disabled ones too; SHOP_ITEM_NOT_FOUND for another server's. */
export async function readItemForEdit(db: Kysely<Database>, guildId: string, itemId: number) {
  const item = await findItem(db, guildId, itemId);
  if (!item) throw new ShopRefusal('SHOP_ITEM_NOT_FOUND', 'This server has no such shop item.');
  return item;
}

/** The stores an item may be put in (Main aside), for the item form's choice. */
export const readStoreChoices = (db: Kysely<Database>, guildId: string) => listStores(db, guildId);
