import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { restoreStock } from '../../db/shop/items.js';
import { lockPurchase, markRefunded } from '../../db/shop/purchases.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import type { z } from '../core/zod.js';
import type { ShopRefundResult } from './contract.js';
import type { ShopWrite } from './buyItem.js';
import { moveBalance } from '../bank/moveBalance.js';
import { purchaseAlreadyRefunded, purchaseNotFound } from './shopErrors.js';
import { refundEventData, toPurchaseBody } from './shopViews.js';

export interface RefundInput {
  guildId: string;
  purchaseId: number;
  reason: string | null;
  actor: AuditActor;
  /** Who refunded it (the key's creator), reported as refundedBy. */
  refundedBy: string | null;
  requestId?: string;
  at: Date;
}

/**
 * Refunds an owned or used purchase in the caller's transaction (row lock: of two refunds at once one wins,
 * the other answers PURCHASE_ALREADY_REFUNDED): pricePaid credited back with its ledger row and event, the unit
 * put back in stock, `shop.refund` and the audit row. The role comes off in the refund's workflow.
 */
export async function refundPurchase(trx: Kysely<Database>, input: RefundInput): Promise<ShopWrite<z.infer<typeof ShopRefundResult>>> {
  const { guildId, at } = input;
  const locked = await lockPurchase(trx, guildId, input.purchaseId);
  if (!locked) throw purchaseNotFound();
  if (locked.status === 'refunded') throw purchaseAlreadyRefunded();

  const events: OutboxEvent[] = [];
  let credit: { transactionId: number | null; balance: number | null } = { transactionId: null, balance: null };
  if (locked.pricePaid > 0) {
    const moved = await moveBalance(trx, {
      guildId,
      userId: locked.userId,
      type: 'add',
      amount: locked.pricePaid,
      ledgerType: 'shop_refund',
      reason: input.reason ?? `Shop refund: ${locked.item.name}`,
      actorId: input.refundedBy,
      apiKeyId: input.actor.type === 'api_key' ? input.actor.apiKeyId : null,
      at,
    });
    events.push(...moved.events);
    credit = moved;
  }
  if (locked.item.id !== null) await restoreStock(trx, locked.item.id);
  const purchase = await markRefunded(trx, locked.id, input.refundedBy, at);
  events.push(await recordEvent(trx, { type: 'shop.refund', guildId, createdAt: at, data: refundEventData(purchase) }));
  await writeAudit(trx, {
    guildId,
    actor: input.actor,
    action: 'shop.refund',
    target: { type: 'purchase', id: String(purchase.id) },
    requestId: input.requestId,
    data: { userId: purchase.userId, previousStatus: locked.status, price: purchase.pricePaid, transactionId: credit.transactionId, reason: input.reason },
  });
  return { result: { purchase: toPurchaseBody(purchase), transactionId: credit.transactionId, balance: credit.balance }, purchase, events };
}
