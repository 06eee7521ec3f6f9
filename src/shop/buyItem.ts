import type { Kysely } from 'kysely';
import { findBalance, findBankSettings } from '../../db/bank/accounts.js';
import { findLevelMember } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import type { AuditActor } from '../../db/shared/audit.js';
import { findItem } from '../../db/shop/items.js';
import { countUnrefunded, lockMemberPurchases, type PurchaseRecord } from '../../db/shop/purchases.js';
import { findStore } from '../../db/shop/stores.js';
import { bankDisabled } from '../core/errors.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { levelFromXp } from '../levels/curve.js';
import type { ShopBuyResult } from './contract.js';
import { moveBalance } from '../bank/moveBalance.js';
import { checkBuyable } from './purchaseRules.js';
import { recordPurchase } from './recordPurchase.js';
import { outOfStock, shopItemNotFound } from './shopErrors.js';
import { toPurchaseBody } from './shopViews.js';
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
  /** An API key's creator, or the buyer (`member`) for their own purchase through a command. */
  actor: Extract<AuditActor, { type: 'api_key' | 'member' }>;
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
 * price debited (ledger row and `bank.transaction`), then recordPurchase: the purchase with its `shop.purchase`
 * event and audit row, and the stock taken by a conditional update. Role effects follow in the purchase's workflow.
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

  const { purchase, event } = await recordPurchase(trx, {
    guildId,
    userId,
    item,
    store,
    source: 'buy',
    pricePaid: item.price,
    transactionId: charge.transactionId,
    actor: input.actor,
    requestId: input.requestId,
    auditData: { price: item.price, transactionId: charge.transactionId, reason: input.reason },
    at,
  });
  events.push(event);
  return { result: { purchase: toPurchaseBody(purchase), ...charge }, purchase, events };
}
