import { integerParam, QueryBoolean, SafeText, SnowflakeId, Timestamp } from '../core/contract.js';
import { Currency } from '../bank/contract.js';
import { z } from '../core/zod.js';

export const MAX_STOCK = 1_000_000;
/** Record ids are PostgreSQL integers. */
export const MAX_RECORD_ID = 2_147_483_647;

const recordId = z.number().int().min(1).max(MAX_RECORD_ID);

export const Store = z
  .object({
    id: z.number().int().nullable().openapi({ description: 'Null for the built-in Main store.' }),
    main: z.boolean(),
    name: z.string().nullable().openapi({ description: 'Null for Main.' }),
    emoji: z.string().nullable(),
    description: z.string().nullable(),
    color: z.string().nullable(),
    enabled: z.boolean(),
    channelIds: z.array(SnowflakeId),
    itemCount: z.number().int().openapi({ description: "The store's listed items: enabled ones, hidden included." }),
  })
  .openapi('Store');

export const StoreList = z.object({ items: z.array(Store) }).openapi('StoreList');

export const ShopItem = z
  .object({
    id: z.number().int(),
    storeId: z.number().int().nullable().openapi({ description: 'Null = the Main store.' }),
    name: z.string(),
    description: z.string().nullable(),
    emoji: z.string().nullable(),
    price: z.number().int(),
    type: z.enum(['role', 'color', 'item']),
    category: z.string().nullable(),
    roleId: SnowflakeId.nullable(),
    durationSec: z.number().int().openapi({ description: 'Timed role length; 0 = permanent.' }),
    consumable: z.boolean(),
    fulfillment: z.boolean().openapi({ description: 'Staff deliver it.' }),
    stock: z.number().int().nullable().openapi({ description: 'Null = unlimited.' }),
    perUserLimit: z.number().int().nullable(),
    requiredRoleIds: z.array(SnowflakeId).openapi({ description: 'A buyer must hold every one of these roles.' }),
    minLevel: z.number().int(),
    enabled: z.boolean(),
    hidden: z.boolean(),
    sortOrder: z.number().int(),
  })
  .openapi('ShopItem');

export const ShopItemList = z.object({ items: z.array(ShopItem), currency: Currency }).openapi('ShopItemList');

export const ShopItemsQuery = z.object({
  storeId: z
    .string()
    .regex(/^(main|[0-9]{1,10})$/, 'must be `main` or a store id')
    .transform((v) => (v === 'main' ? ('main' as const) : Number(v)))
    .optional()
    .openapi({ description: '`main` or a store id (an unknown id lists nothing); every store when absent.', type: 'string', pattern: '^(main|[0-9]{1,10})$', example: 'main' }),
  category: SafeText.min(1).max(32).optional(),
  includeDisabled: QueryBoolean.optional().openapi({ description: 'Also list disabled items (default false).' }),
});

export const ShopItemParams = z.object({ guildId: SnowflakeId, itemId: integerParam({ min: 1, max: MAX_RECORD_ID }) });

export const ShopItemPatch = z
  .strictObject({
    enabled: z.boolean().optional().openapi({ description: 'Off = not listed, not buyable.' }),
    stock: z.number().int().min(0).max(MAX_STOCK).nullable().optional().openapi({ description: 'Null = unlimited.' }),
  })
  .refine((b) => b.enabled !== undefined || b.stock !== undefined, { message: 'send enabled, stock or both' })
  .openapi('ShopItemPatch', { minProperties: 1 });

export const Purchase = z
  .object({
    id: z.number().int(),
    userId: SnowflakeId,
    item: z
      .object({
        id: z.number().int().nullable().openapi({ description: 'Null when the item was deleted since.' }),
        name: z.string(),
        emoji: z.string().nullable(),
        type: z.enum(['role', 'color', 'item']),
      })
      .openapi('PurchaseItem'),
    store: z
      .object({ id: z.number().int().nullable(), name: z.string().nullable() })
      .openapi('PurchaseStore', { description: 'Nulls = the built-in Main store.' }),
    source: z.enum(['buy', 'grant']),
    status: z.enum(['owned', 'used', 'refunded']).openapi({ description: '`used`: consumed, or a timed role that ran out.' }),
    pricePaid: z.number().int().openapi({ description: '0 for grants.' }),
    roleId: SnowflakeId.nullable(),
    expiresAt: Timestamp.nullable().openapi({ description: 'When a timed role is taken back; null = permanent.' }),
    createdAt: Timestamp,
    refundedAt: Timestamp.nullable(),
    refundedBy: SnowflakeId.nullable().openapi({ description: "The refunding key's creator; null when unknown." }),
  })
  .openapi('Purchase');

export const PurchaseList = z
  .object({
    items: z.array(Purchase),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `before` for the next page; null on the last page.' }),
  })
  .openapi('PurchaseList');

const page = {
  limit: integerParam({ min: 1, max: 100, default: 25 }),
  before: integerParam({ min: 1, max: 999_999_999 }).optional(),
};

export const PurchasesQuery = z.object({
  userId: SnowflakeId.optional(),
  itemId: integerParam({ min: 1, max: MAX_RECORD_ID }).optional(),
  status: z.enum(['owned', 'used', 'refunded']).optional(),
  source: z.enum(['buy', 'grant']).optional(),
  ...page,
});

export const InventoryQuery = z.object(page);

export const PurchaseParams = z.object({ guildId: SnowflakeId, purchaseId: integerParam({ min: 1, max: MAX_RECORD_ID }) });

export const ShopBuyRequest = z
  .strictObject({
    itemId: recordId,
    reason: SafeText.max(500).nullable().optional().openapi({ description: 'Kept in the ledger row and the audit log.' }),
  })
  .openapi('ShopBuyRequest');

export const ShopGrantRequest = ShopBuyRequest.openapi('ShopGrantRequest');

export const ShopRefundRequest = z
  .strictObject({ reason: SafeText.max(500).nullable().optional() })
  .openapi('ShopRefundRequest');

export const ShopBuyResult = z
  .object({
    purchase: Purchase,
    transactionId: z.number().int().nullable().openapi({ description: 'The ledger row of the charge; null for a free item.' }),
    previousBalance: z.number().int(),
    balance: z.number().int(),
  })
  .openapi('ShopBuyResult');

export const ShopRefundResult = z
  .object({
    purchase: Purchase,
    transactionId: z.number().int().nullable().openapi({ description: 'The ledger row of the credit; null when nothing was paid.' }),
    balance: z.number().int().nullable().openapi({ description: 'The balance after the credit; null when nothing was paid.' }),
  })
  .openapi('ShopRefundResult');

export type StoreBody = z.infer<typeof Store>;
export type ShopItemBody = z.infer<typeof ShopItem>;
export type PurchaseBody = z.infer<typeof Purchase>;
