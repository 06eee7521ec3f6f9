import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AuditActor } from '../../db/shared/audit.js';
import { findItem } from '../../db/shop/items.js';
import { findStore } from '../../db/shop/stores.js';
import type { PurchaseBody } from './contract.js';
import type { ShopWrite } from './buyItem.js';
import { recordPurchase } from './recordPurchase.js';
import { shopItemNotFound } from './shopErrors.js';
import { toPurchaseBody } from './shopViews.js';

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
 * but the stock is taken as for a buy (recordPurchase). The purchase (source `grant`, pricePaid 0) emits `shop.purchase`.
 */
export async function grantItem(trx: Kysely<Database>, input: GrantInput): Promise<ShopWrite<PurchaseBody>> {
  const { guildId, userId, at } = input;
  const item = await findItem(trx, guildId, input.itemId);
  if (!item) throw shopItemNotFound();
  const store = item.storeId === null ? undefined : await findStore(trx, guildId, item.storeId);
  const { purchase, event } = await recordPurchase(trx, {
    guildId,
    userId,
    item,
    store,
    source: 'grant',
    pricePaid: 0,
    transactionId: null,
    actor: input.actor,
    requestId: input.requestId,
    auditData: { reason: input.reason },
    at,
  });
  return { result: toPurchaseBody(purchase), purchase, events: [event] };
}
