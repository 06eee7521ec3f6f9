import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { takeStock, type ShopItemRecord } from '../../db/shop/items.js';
import { insertPurchase, type PurchaseRecord } from '../../db/shop/purchases.js';
import type { StoreRecord } from '../../db/shop/stores.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { purchaseExpiry } from './purchaseRules.js';
import { outOfStock } from './shopErrors.js';
import { purchaseEventData } from './shopViews.js';

const AUDIT_ACTION = { buy: 'shop.buy', grant: 'shop.grant' } as const;

export interface PurchaseEntry {
  guildId: string;
  userId: string;
  item: ShopItemRecord;
  store: StoreRecord | undefined;
  source: 'buy' | 'grant';
  pricePaid: number;
  /** The ledger row of the charge; null when nothing was charged. */
  transactionId: number | null;
  actor: AuditActor;
  requestId?: string;
  /** What the audit row adds to the purchase and item ids. */
  auditData: Record<string, unknown>;
  at: Date;
}

/**
 * Records one unit given (bought or granted) in the caller's transaction: the purchase with its expiry, its
 * `shop.purchase` event and the audit row (`shop.buy`, `shop.grant`), then the stock taken (OUT_OF_STOCK rolls it all back).
 * The stock is taken last, by buys and grants alike, so the item's row lock (every taker of a limited item queues
 * on it) is held only until the commit; an unlimited item is not locked at all, so its takers never wait on each
 * other.
 */
export async function recordPurchase(trx: Kysely<Database>, p: PurchaseEntry): Promise<{ purchase: PurchaseRecord; event: OutboxEvent }> {
  const { guildId, userId, item, at } = p;
  const purchase = await insertPurchase(trx, {
    guildId,
    userId,
    item: { id: item.id, name: item.name, emoji: item.emoji, type: item.type },
    store: { id: p.store?.id ?? null, name: p.store?.name ?? null },
    source: p.source,
    pricePaid: p.pricePaid,
    roleId: item.roleId,
    expiresAt: purchaseExpiry(item, at),
    transactionId: p.transactionId,
    createdAt: at,
  });
  const event = await recordEvent(trx, { type: 'shop.purchase', guildId, createdAt: at, data: purchaseEventData(purchase) });
  await writeAudit(trx, {
    guildId,
    actor: p.actor,
    action: AUDIT_ACTION[p.source],
    target: { type: 'member', id: userId },
    requestId: p.requestId,
    data: { purchaseId: purchase.id, itemId: item.id, ...p.auditData },
  });
  if (item.stock !== null && !(await takeStock(trx, item.id))) throw outOfStock();
  return { purchase, event };
}
