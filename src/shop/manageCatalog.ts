import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { findItem, insertItem, updateItem, type ShopItemRecord } from '../../db/shop/items.js';
import { findStore, insertStore, listCategories, renameCategory, saveCategory, updateStore, type StoreRecord } from '../../db/shop/stores.js';
import { ItemFields, type ItemFieldsInput, type StoreFieldsInput } from './catalogInput.js';
import { ShopRefusal } from './shopRefusal.js';

// Staff changes of the catalog (console, admin CLI), each with its audit row in the caller's transaction.

interface Change {
  guildId: string;
  actor: AuditActor;
  at: Date;
}

const audit = (trx: Kysely<Database>, c: Change, action: string, target: { type: string; id: string }, data: Record<string, unknown>) =>
  writeAudit(trx, { guildId: c.guildId, actor: c.actor, action, target, data });

export async function createStore(trx: Kysely<Database>, c: Change & { fields: StoreFieldsInput }): Promise<StoreRecord> {
  const store = await insertStore(trx, c.guildId, c.fields, c.at);
  await audit(trx, c, 'shop.storeCreate', { type: 'shop_store', id: String(store.id) }, { ...c.fields });
  return store;
}

export async function changeStore(trx: Kysely<Database>, c: Change & { storeId: number; fields: Partial<StoreFieldsInput> }): Promise<StoreRecord> {
  const store = await updateStore(trx, c.guildId, c.storeId, c.fields);
  if (!store) throw new ShopRefusal('STORE_NOT_FOUND', `Guild ${c.guildId} has no store ${c.storeId}.`);
  await audit(trx, c, 'shop.storeUpdate', { type: 'shop_store', id: String(store.id) }, { ...c.fields });
  return store;
}

/** The store and category an item names must exist in the same server. */
async function checkPlacement(trx: Kysely<Database>, guildId: string, fields: Pick<ItemFieldsInput, 'storeId' | 'category'>): Promise<void> {
  if (fields.storeId !== null && !(await findStore(trx, guildId, fields.storeId))) {
    throw new ShopRefusal('STORE_NOT_FOUND', `Guild ${guildId} has no store ${fields.storeId}.`);
  }
  if (fields.category !== null && !(await listCategories(trx, guildId)).some((cat) => cat.name === fields.category)) {
    throw new ShopRefusal('CATEGORY_NOT_FOUND', `Guild ${guildId} has no shop category "${fields.category}"; create it first.`);
  }
}

export async function createItem(trx: Kysely<Database>, c: Change & { fields: ItemFieldsInput }): Promise<ShopItemRecord> {
  await checkPlacement(trx, c.guildId, c.fields);
  const item = await insertItem(trx, c.guildId, c.fields, c.at);
  await audit(trx, c, 'shop.itemCreate', { type: 'shop_item', id: String(item.id) }, { ...c.fields });
  return item;
}

/** Changes any field; the item as a whole must still be valid (a role item keeps a role, ...). */
export async function changeItem(trx: Kysely<Database>, c: Change & { itemId: number; fields: Partial<ItemFieldsInput> }): Promise<ShopItemRecord> {
  const before = await findItem(trx, c.guildId, c.itemId);
  if (!before) throw new ShopRefusal('SHOP_ITEM_NOT_FOUND', `Guild ${c.guildId} has no shop item ${c.itemId}.`);
  const { id: _id, ...current } = before;
  const merged = ItemFields.safeParse({ ...current, ...c.fields });
  if (!merged.success) throw new ShopRefusal('INVALID_ITEM', merged.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  await checkPlacement(trx, c.guildId, merged.data);
  const item = (await updateItem(trx, c.guildId, c.itemId, c.fields, c.at))!;
  await audit(trx, c, 'shop.itemUpdate', { type: 'shop_item', id: String(item.id) }, { ...c.fields });
  return item;
}

export async function createCategory(trx: Kysely<Database>, c: Change & { name: string; sortOrder: number }): Promise<void> {
  if ((await listCategories(trx, c.guildId)).some((cat) => cat.name === c.name)) {
    throw new ShopRefusal('CATEGORY_EXISTS', `Guild ${c.guildId} already has the shop category "${c.name}".`);
  }
  await saveCategory(trx, c.guildId, { name: c.name, sortOrder: c.sortOrder });
  await audit(trx, c, 'shop.categoryCreate', { type: 'shop_category', id: c.name }, { sortOrder: c.sortOrder });
}

/** Renames a category (its items follow) and/or sets its sort order. */
export async function changeCategory(trx: Kysely<Database>, c: Change & { name: string; renameTo?: string; sortOrder?: number }): Promise<string> {
  const categories = await listCategories(trx, c.guildId);
  const existing = categories.find((cat) => cat.name === c.name);
  if (!existing) throw new ShopRefusal('CATEGORY_NOT_FOUND', `Guild ${c.guildId} has no shop category "${c.name}".`);
  let name = c.name;
  if (c.renameTo !== undefined && c.renameTo !== c.name) {
    if (categories.some((cat) => cat.name === c.renameTo)) {
      throw new ShopRefusal('CATEGORY_EXISTS', `Guild ${c.guildId} already has the shop category "${c.renameTo}".`);
    }
    await renameCategory(trx, c.guildId, c.name, c.renameTo);
    name = c.renameTo;
  }
  if (c.sortOrder !== undefined) await saveCategory(trx, c.guildId, { name, sortOrder: c.sortOrder });
  await audit(trx, c, 'shop.categoryUpdate', { type: 'shop_category', id: c.name }, { renameTo: c.renameTo ?? null, sortOrder: c.sortOrder ?? existing.sortOrder });
  return name;
}
