import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { findItem, takeStock } from '../../db/shop/items.js';
import { insertPurchase } from '../../db/shop/purchases.js';
import { findStore } from '../../db/shop/stores.js';
import { recordEvent } from '../events/outbox.js';
import type { PurchaseBody } from './contract.js';
import type { ShopWrite } from './buyItem.js';
import { purchaseExpiry } from './purchaseRules.js';
import { outOfStock, shopItemNotFound } from './shopErrors.js';
import { purchaseEventData, toPurchaseBody } from './shopViews.js';

export interface GrantInput {
  guildId: string;
  userId: string;
  itemId: number;
  reason: string | null;
  actor: AuditActor;
  requestId?: string;
  at: Date;
}

/**
 * Gives one unit free in the caller's transaction: no price, no requirement, no limit, a disabled item too,
 * but the stock is taken as for a buy. The purchase (source `grant`, pricePaid 0) emits `shop.purchase`.
 */
export async function grantItem(trx: Kysely<Database>, input: GrantInput): Promise<ShopWrite<PurchaseBody>> {
  const { guildId, userId, at } = input;
  const item = await findItem(trx, guildId, input.itemId);
  if (!item) throw shopItemNotFound();
  if (item.stock !== null && !(await takeStock(trx, item.id))) throw outOfStock();
  const store = item.storeId === null ? undefined : await findStore(trx, guildId, item.storeId);
  const purchase = await insertPurchase(trx, {
    guildId,
    userId,
    item: { id: item.id, name: item.name, emoji: item.emoji, type: item.type },
    store: { id: store?.id ?? null, name: store?.name ?? null },
    source: 'grant',
    pricePaid: 0,
    roleId: item.roleId,
    expiresAt: purchaseExpiry(item, at),
    transactionId: null,
    createdAt: at,
  });
  const event = await recordEvent(trx, { type: 'shop.purchase', guildId, createdAt: at, data: purchaseEventData(purchase) });
  await writeAudit(trx, {
    guildId,
    actor: input.actor,
    action: 'shop.grant',
    target: { type: 'member', id: userId },
    requestId: input.requestId,
    data: { purchaseId: purchase.id, itemId: item.id, reason: input.reason },
  });
  return { result: toPurchaseBody(purchase), purchase, events: [event] };
}
