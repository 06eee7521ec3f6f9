import { GuildMemberParams, GuildParams } from '../../src/core/contract.js';
import {
  InventoryQuery,
  Purchase,
  PurchaseList,
  PurchaseParams,
  PurchasesQuery,
  ShopItem,
  ShopItemList,
  ShopItemParams,
  ShopItemPatch,
  ShopItemsQuery,
  StoreList,
} from '../../src/shop/contract.js';
import { readInventoryPage, readPurchase, readPurchasePage, readShopItem, readShopItems, readStores } from '../../src/shop/readShop.js';
import { toShopItemBody } from '../../src/shop/shopViews.js';
import { updateShopItem } from '../../src/shop/updateShopItem.js';
import type { AppDeps } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { shopWriteRoutes } from './shopWrites.js';

const area = 'shop';
const feature = 'shop';

export function shopRoutes(deps: AppDeps): RouteDefinition[] {
  const { db, clock } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/shop/stores',
      operationId: 'listShopStores',
      summary: 'Stores, the built-in Main store first',
      description: 'Main first (id and name null), then the server\'s stores in console order. `itemCount` counts enabled items, hidden ones included.',
      area,
      feature,
      scope: 'shop:read',
      request: { params: GuildParams },
      response: { status: 200, schema: StoreList, description: 'Every store.' },
      handle: ({ caller: { guild } }) => readStores(db, guild.id),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/shop/items',
      operationId: 'listShopItems',
      summary: 'Items in sort order, with the server currency',
      description:
        'Only enabled items unless `includeDisabled` is true; hidden items are included. `storeId` is `main` or a store id ' +
        '(an unknown store lists nothing); without it every store is listed.',
      area,
      feature,
      scope: 'shop:read',
      request: { params: GuildParams, query: ShopItemsQuery },
      response: { status: 200, schema: ShopItemList, description: 'The items and the currency their prices are in.' },
      handle: ({ query, caller: { guild } }) => readShopItems(db, guild.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/shop/items/{itemId}',
      operationId: 'getShopItem',
      summary: 'One shop item',
      description: 'Disabled and hidden items too.',
      area,
      feature,
      scope: 'shop:read',
      request: { params: ShopItemParams },
      response: { status: 200, schema: ShopItem, description: 'The item.' },
      errors: ['SHOP_ITEM_NOT_FOUND'],
      handle: ({ params, caller: { guild } }) => readShopItem(db, guild.id, params.itemId),
    }),
    defineRoute({
      method: 'patch',
      path: '/guilds/{guildId}/shop/items/{itemId}',
      operationId: 'updateShopItem',
      summary: 'Turn an item on or off, or restock it',
      description: 'Send `enabled`, `stock` or both (`stock` null = unlimited). Audit-logged as `shop.itemUpdate` with the values before and after.',
      area,
      feature,
      scope: 'shop:write',
      sensitive: true,
      request: { params: ShopItemParams, body: ShopItemPatch },
      response: { status: 200, schema: ShopItem, description: 'The item as changed.' },
      errors: ['SHOP_ITEM_NOT_FOUND'],
      async handle({ params, body, caller, db: trx }) {
        const item = await updateShopItem(trx, {
          guildId: caller.guild.id,
          itemId: params.itemId,
          enabled: body.enabled,
          stock: body.stock,
          actor: { type: 'api_key', apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy },
          requestId: caller.requestId,
          at: clock.now(),
        });
        return toShopItemBody(item);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/shop/members/{userId}/inventory',
      operationId: 'getShopInventory',
      summary: "A member's inventory: the purchases they own, newest first",
      description:
        'One row per unit, status `owned` only (used and refunded ones are in the purchases list), also for members who ' +
        'left the server. Pass `nextCursor` as `before` for the next page.',
      area,
      feature,
      scope: 'shop:read',
      request: { params: GuildMemberParams, query: InventoryQuery },
      response: { status: 200, schema: PurchaseList, description: 'One page of owned purchases.' },
      handle: ({ params, query, caller: { guild } }) => readInventoryPage(db, guild.id, params.userId, query),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/shop/purchases',
      operationId: 'listShopPurchases',
      summary: 'Purchases and grants, newest first',
      description: 'Filter by `userId`, `itemId`, `status` and `source`; pass `nextCursor` as `before` for the next page.',
      area,
      feature,
      scope: 'shop:read',
      request: { params: GuildParams, query: PurchasesQuery },
      response: { status: 200, schema: PurchaseList, description: 'One page of purchases.' },
      handle: ({ query, caller: { guild } }) => readPurchasePage(db, guild.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/shop/purchases/{purchaseId}',
      operationId: 'getShopPurchase',
      summary: 'One purchase',
      area,
      feature,
      scope: 'shop:read',
      request: { params: PurchaseParams },
      description: 'A buy or a grant, in any status; another server\'s purchase answers 404 PURCHASE_NOT_FOUND.',
      response: { status: 200, schema: Purchase, description: 'The purchase.' },
      errors: ['PURCHASE_NOT_FOUND'],
      handle: ({ params, caller: { guild } }) => readPurchase(db, guild.id, params.purchaseId),
    }),
    ...shopWriteRoutes(deps),
  ];
}
