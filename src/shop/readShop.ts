import type { Kysely } from 'kysely';
import { findBankSettings } from '../../db/bank/accounts.js';
import type { Database } from '../../db/schema.js';
import { findItem, listItems } from '../../db/shop/items.js';
import { findPurchase, listPurchases } from '../../db/shop/purchases.js';
import { countListedItems, listStores } from '../../db/shop/stores.js';
import { cursorPage } from '../core/cursorPage.js';
import type { z } from '../core/zod.js';
import { MAX_RECORD_ID, type InventoryQuery, type PurchasesQuery, type ShopItemsQuery } from './contract.js';
import { purchaseNotFound, shopItemNotFound } from './shopErrors.js';
import { mainStoreBody, toPurchaseBody, toShopItemBody, toStoreBody } from './shopViews.js';

/** Every store, the built-in Main store first; `itemCount` counts enabled items, hidden ones included. */
export async function readStores(db: Kysely<Database>, guildId: string) {
  const [stores, counts] = await Promise.all([listStores(db, guildId), countListedItems(db, guildId)]);
  return { items: [mainStoreBody(counts.get(null) ?? 0), ...stores.map((s) => toStoreBody(s, counts.get(s.id) ?? 0))] };
}

/** Items in sort order with the currency their prices are in; `main` is the store without an id. */
export async function readShopItems(db: Kysely<Database>, guildId: string, query: z.output<typeof ShopItemsQuery>) {
  const storeId = query.storeId === 'main' ? null : query.storeId;
  const filter = { storeId, category: query.category, includeDisabled: query.includeDisabled ?? false };
  // No store has an id past the column's range: such an id is unknown, not an error.
  const known = storeId === null || storeId === undefined || storeId <= MAX_RECORD_ID;
  const [items, settings] = await Promise.all([known ? listItems(db, guildId, filter) : [], findBankSettings(db, guildId)]);
  return { items: items.map(toShopItemBody), currency: settings.currency };
}

/** One item, disabled and hidden ones too; refused with SHOP_ITEM_NOT_FOUND. */
export async function readShopItem(db: Kysely<Database>, guildId: string, itemId: number) {
  const item = await findItem(db, guildId, itemId);
  if (!item) throw shopItemNotFound();
  return toShopItemBody(item);
}

/** The purchases a member owns, newest first (one row per unit). */
export async function readInventoryPage(db: Kysely<Database>, guildId: string, userId: string, query: z.output<typeof InventoryQuery>) {
  const page = await cursorPage(query.limit, (limit) => listPurchases(db, guildId, { userId, status: 'owned', before: query.before, limit }), (p) => p.id);
  return { items: page.items.map(toPurchaseBody), nextCursor: page.nextCursor };
}

/** Purchases and grants, newest first, filtered as asked. */
export async function readPurchasePage(db: Kysely<Database>, guildId: string, query: z.output<typeof PurchasesQuery>) {
  const page = await cursorPage(query.limit, (limit) => listPurchases(db, guildId, { ...query, limit }), (p) => p.id);
  return { items: page.items.map(toPurchaseBody), nextCursor: page.nextCursor };
}

/** One purchase in any status; refused with PURCHASE_NOT_FOUND (also another server's). */
export async function readPurchase(db: Kysely<Database>, guildId: string, purchaseId: number) {
  const purchase = await findPurchase(db, guildId, purchaseId);
  if (!purchase) throw purchaseNotFound();
  return toPurchaseBody(purchase);
}
