import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { PurchaseRef } from '../../db/shop/purchases.js';
import { GuildMemberParams } from '../../src/core/contract.js';
import { requireHumanMember } from '../../src/core/members.js';
import type { PlatformMember } from '../../src/core/platform.js';
import type { Operation } from '../../src/core/temporal/operation.js';
import type { Workflow } from '../../src/core/temporal/workflowRef.js';
import { buyItem, type ShopWrite } from '../../src/shop/buyItem.js';
import { Purchase, PurchaseParams, ShopBuyRequest, ShopBuyResult, ShopGrantRequest, ShopRefundRequest, ShopRefundResult } from '../../src/shop/contract.js';
import { grantItem } from '../../src/shop/grantItem.js';
import { purchaseEffectsOperation, purchaseRefundOperation, roleEffectsOf } from '../../src/shop/purchaseOperations.js';
import { refundPurchase } from '../../src/shop/refundPurchase.js';
import type { AppDeps, Caller } from '../context.js';
import { defineRoute, type RouteDefinition, type RouteInput } from '../route.js';

const area = 'shop';
const feature = 'shop';

const IDEMPOTENCY =
  'Accepts Idempotency-Key: a retry with the same key and body answers the stored response (Idempotent-Replayed: true) and changes nothing.';

export function shopWriteRoutes({ platform, clock }: AppDeps): RouteDefinition[] {
  // The buyer as the platform reports them, looked up by check() before the transaction opens (no connection held).
  const buyers = new WeakMap<Caller, PlatformMember>();
  const apiActor = (caller: Caller) => ({ type: 'api_key' as const, apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy });
  /** One unit of an item for a member, as a buy and a grant both take it. */
  const unitFor = (caller: Caller, userId: string, body: { itemId: number; reason?: string | null }) => ({
    guildId: caller.guild.id,
    userId,
    itemId: body.itemId,
    reason: body.reason ?? null,
    actor: apiActor(caller),
    requestId: caller.requestId,
    at: clock.now(),
  });
  /**
   * After a buy, grant or refund commits: its events fan out, and the bot gives (`purchaseEffectsOperation`) or takes
   * back (`purchaseRefundOperation`) the item's role.
   */
  const followPurchase = <T, W extends Workflow>(
    { result, purchase, events }: ShopWrite<T>,
    roleEffects: Operation<PurchaseRef, W, Kysely<Database>>,
    { publish, launch }: Pick<RouteInput<never, never, never>, 'publish' | 'launch'>,
  ): T => {
    publish(events);
    const effects = roleEffectsOf(purchase);
    if (effects) launch(roleEffects, effects);
    return result;
  };

  return [
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/shop/members/{userId}/purchases',
      operationId: 'buyShopItem',
      summary: 'Buy one unit of an item for a member, charged from their balance',
      description:
        'One transaction: the item enabled (and its store), every required role held, `minLevel` reached, `perUserLimit` not ' +
        'reached, one unit of stock taken, the price debited (ledger type `shop_purchase`, `bank.transaction`), the purchase ' +
        'written with `shop.purchase`. Hidden items can be bought. The role (colour roles are exclusive; a timed role is taken ' +
        `back when it runs out) is then given by the bot within seconds. ${IDEMPOTENCY}`,
      area,
      feature,
      scope: 'shop:write',
      sensitive: true,
      idempotent: true,
      request: { params: GuildMemberParams, body: ShopBuyRequest },
      response: { status: 201, schema: ShopBuyResult, description: 'The purchase and the balance before and after.' },
      errors: [
        'MEMBER_NOT_FOUND',
        'BOT_ACCOUNT',
        'SHOP_ITEM_NOT_FOUND',
        'SHOP_ITEM_DISABLED',
        'REQUIREMENT_NOT_MET',
        'PURCHASE_LIMIT_REACHED',
        'BANK_DISABLED',
        'OUT_OF_STOCK',
        'INSUFFICIENT_FUNDS',
        'IDEMPOTENCY_KEY_REUSED',
      ],
      async check({ params, caller }) {
        buyers.set(caller, await requireHumanMember(platform, caller.guild.id, params.userId));
      },
      async handle({ params, body, caller, db: trx, publish, launch }) {
        const bought = await buyItem(trx, {
          ...unitFor(caller, params.userId, body),
          roleIds: buyers.get(caller)?.roleIds ?? [],
          bankEnabled: caller.guild.features.includes('bank'),
        });
        return followPurchase(bought, purchaseEffectsOperation, { publish, launch });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/shop/members/{userId}/grants',
      operationId: 'grantShopItem',
      summary: 'Give one unit of an item to a member, free',
      description:
        'No price, requirement or per-member limit is checked, and disabled items can be granted; one unit of stock is taken. ' +
        `The purchase (source \`grant\`, pricePaid 0) emits \`shop.purchase\` and its role is given as for a buy. ${IDEMPOTENCY}`,
      area,
      feature,
      scope: 'shop:write',
      sensitive: true,
      idempotent: true,
      request: { params: GuildMemberParams, body: ShopGrantRequest },
      response: { status: 201, schema: Purchase, description: 'The purchase.' },
      errors: ['MEMBER_NOT_FOUND', 'BOT_ACCOUNT', 'SHOP_ITEM_NOT_FOUND', 'OUT_OF_STOCK', 'IDEMPOTENCY_KEY_REUSED'],
      check: ({ params, caller }) => requireHumanMember(platform, caller.guild.id, params.userId).then(() => {}),
      async handle({ params, body, caller, db: trx, publish, launch }) {
        return followPurchase(await grantItem(trx, unitFor(caller, params.userId, body)), purchaseEffectsOperation, { publish, launch });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/shop/purchases/{purchaseId}/refund',
      operationId: 'refundShopPurchase',
      summary: 'Refund a purchase',
      description:
        'An `owned` or `used` purchase becomes `refunded`: pricePaid is credited back (ledger type `shop_refund`, ' +
        '`bank.transaction`), the unit goes back in stock and `shop.refund` is emitted. The bot then takes the role back, ' +
        'unless another owned purchase of the member gives it, and a timed role\'s expiry is cancelled. A second refund ' +
        `answers 409 PURCHASE_ALREADY_REFUNDED. ${IDEMPOTENCY}`,
      area,
      feature,
      scope: 'shop:write',
      sensitive: true,
      idempotent: true,
      request: { params: PurchaseParams, body: ShopRefundRequest },
      response: { status: 200, schema: ShopRefundResult, description: 'The purchase as refunded and the credit.' },
      errors: ['PURCHASE_NOT_FOUND', 'PURCHASE_ALREADY_REFUNDED', 'BALANCE_LIMIT', 'IDEMPOTENCY_KEY_REUSED'],
      async handle({ params, body, caller, db: trx, publish, launch }) {
        const refunded = await refundPurchase(trx, {
          guildId: caller.guild.id,
          purchaseId: params.purchaseId,
          reason: body.reason ?? null,
          actor: apiActor(caller),
          refundedBy: caller.apiKey.createdBy,
          requestId: caller.requestId,
          at: clock.now(),
        });
        return followPurchase(refunded, purchaseRefundOperation, { publish, launch });
      },
    }),
  ];
}
