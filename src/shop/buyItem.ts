import type { Kysely } from 'kysely';
import { findBalance, findBankSettings } from '../../db/bank/accounts.js';
import { findLevelMember } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { findItem, takeStock } from '../../db/shop/items.js';
import { countUnrefunded, insertPurchase, lockMemberPurchases, type PurchaseRecord } from '../../db/shop/purchases.js';
import { findStore } from '../../db/shop/stores.js';
import { bankDisabled } from '../core/errors.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { levelFromXp } from '../levels/curve.js';
import type { ShopBuyResult } from './contract.js';
import { moveBalance } from '../bank/moveBalance.js';
import { checkBuyable, purchaseExpiry } from './purchaseRules.js';
import { outOfStock, shopItemNotFound } from './shopErrors.js';
import { purchaseEventData, toPurchaseBody } from './shopViews.js';
import type { z } from '../core/zod.js';

export interface BuyInput {
  guildId: string;
  userId: string;
  itemId: number;
  /** The member's roles as the platform reports them now (looked up before the transaction opened). */
  roleIds: readonly string[];
  /** Whether the server's Bank feature is on: a priced item cannot be charged without it. */
  bankEnabled: boolean;
  reason: string | null;
  /** An API key's creator, or the bot (`system`) for the member's own purchase through a command. */
  actor: Extract<AuditActor, { type: 'api_key' | 'system' }>;
  requestId?: string;
  at: Date;
}

export interface ShopWrite<T> {
  result: T;
  purchase: PurchaseRecord;
  events: OutboxEvent[];
}

/**
 * Buys one unit for a member in the caller's transaction: the item on sale and the requirements checked, the
 * stock taken by a conditional update, the price debited (ledger row and `bank.transaction`), the purchase
 * written with its `shop.purchase` event and audit row. Role effects follow in the purchase's workflow.
 */
export async function buyItem(trx: Kysely<Database>, input: BuyInput): Promise<ShopWrite<z.infer<typeof ShopBuyResult>>> {
  const { guildId, userId, at } = input;
  const item = await findItem(trx, guildId, input.itemId);
  if (!item) throw shopItemNotFound();
  const store = item.storeId === null ? undefined : await findStore(trx, guildId, item.storeId);
  await lockMemberPurchases(trx, guildId, userId);
  const xp = (await findLevelMember(trx, guildId, userId))?.xp ?? 0;
  checkBuyable(item, store?.enabled ?? true, {
    roleIds: input.roleIds,
    level: levelFromXp(xp).level,
    unitsHeld: item.perUserLimit === null ? 0 : await countUnrefunded(trx, item.id, userId),
  });
  if (item.price > 0 && !input.bankEnabled) throw bankDisabled();
  // Checked before the charge so an empty shelf answers OUT_OF_STOCK whatever the balance; takeStock decides.
  if (item.stock === 0) throw outOfStock();

  const events: OutboxEvent[] = [];
  let charge: { transactionId: number | null; previousBalance: number; balance: number };
  if (item.price > 0) {
    const moved = await moveBalance(trx, {
      guildId,
      userId,
      type: 'remove',
      amount: item.price,
      ledgerType: 'shop_purchase',
      reason: input.reason ?? `Shop: ${item.name}`,
      // Through the bot, the buyer spends their own balance: they are the ledger's actor.
      actorId: input.actor.type === 'api_key' ? input.actor.userId : userId,
      apiKeyId: input.actor.type === 'api_key' ? input.actor.apiKeyId : null,
      at,
    });
    events.push(...moved.events);
    charge = moved;
  } else {
    const balance = (await findBalance(trx, guildId, userId)) ?? (await findBankSettings(trx, guildId)).startingBalance;
    charge = { transactionId: null, previousBalance: balance, balance };
  }

  const purchase = await insertPurchase(trx, {
    guildId,
    userId,
    item: { id: item.id, name: item.name, emoji: item.emoji, type: item.type },
    store: { id: store?.id ?? null, name: store?.name ?? null },
    source: 'buy',
    pricePaid: item.price,
    roleId: item.roleId,
    expiresAt: purchaseExpiry(item, at),
    transactionId: charge.transactionId,
    createdAt: at,
  });
  events.push(await recordEvent(trx, { type: 'shop.purchase', guildId, createdAt: at, data: purchaseEventData(purchase) }));
  await writeAudit(trx, {
    guildId,
    actor: input.actor,
    action: 'shop.buy',
    target: { type: 'member', id: userId },
    requestId: input.requestId,
    data: { purchaseId: purchase.id, itemId: item.id, price: item.price, transactionId: charge.transactionId, reason: input.reason },
  });
  // Last, so the item's row lock (every buyer of a limited item queues on it) is held only until the commit. An
  // unlimited item is not locked at all: buys of it never wait on each other.
  if (item.stock !== null && !(await takeStock(trx, item.id))) throw outOfStock();
  return { result: { purchase: toPurchaseBody(purchase), ...charge }, purchase, events };
}
