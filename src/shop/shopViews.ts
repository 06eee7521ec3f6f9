import type { ShopItemRecord } from '../../db/shop/items.js';
import type { PurchaseRecord } from '../../db/shop/purchases.js';
import type { StoreRecord } from '../../db/shop/stores.js';
import type { EventDataByType } from '../events/eventTypes.js';
import type { PurchaseBody, ShopItemBody, StoreBody } from './contract.js';

export const toShopItemBody = (i: ShopItemRecord): ShopItemBody => ({ ...i });

/** The built-in Main store has no row: its fixed look and the count of its listed items. */
export const mainStoreBody = (itemCount: number): StoreBody => ({
  id: null,
  main: true,
  name: null,
  emoji: null,
  description: null,
  color: null,
  enabled: true,
  channelIds: [],
  itemCount,
});

export const toStoreBody = (s: StoreRecord, itemCount: number): StoreBody => ({
  id: s.id,
  main: false,
  name: s.name,
  emoji: s.emoji,
  description: s.description,
  color: s.color,
  enabled: s.enabled,
  channelIds: s.channelIds,
  itemCount,
});

export const toPurchaseBody = (p: PurchaseRecord): PurchaseBody => ({
  id: p.id,
  userId: p.userId,
  item: p.item,
  store: p.store,
  source: p.source,
  status: p.status,
  pricePaid: p.pricePaid,
  roleId: p.roleId,
  expiresAt: p.expiresAt?.toISOString() ?? null,
  createdAt: p.createdAt.toISOString(),
  refundedAt: p.refundedAt?.toISOString() ?? null,
  refundedBy: p.refundedBy,
});

export const purchaseEventData = (p: PurchaseRecord): EventDataByType['shop.purchase'] => ({
  purchaseId: p.id,
  userId: p.userId,
  item: { id: p.item.id, name: p.item.name, emoji: p.item.emoji, type: p.item.type },
  store: p.store,
  price: p.pricePaid,
  status: p.status,
  roleId: p.roleId,
  expiresAt: p.expiresAt?.toISOString() ?? null,
  createdAt: p.createdAt.toISOString(),
});

export const refundEventData = (p: PurchaseRecord): EventDataByType['shop.refund'] => ({
  purchaseId: p.id,
  userId: p.userId,
  item: { id: p.item.id, name: p.item.name, emoji: p.item.emoji, type: p.item.type },
  price: p.pricePaid,
  refundedBy: p.refundedBy,
  refundedAt: p.refundedAt!.toISOString(),
});
