import { SafeText, SnowflakeId } from '../core/contract.js';
import { z } from '../core/zod.js';
import { MAX_BANK_AMOUNT } from '../bank/contract.js';
import { MAX_STOCK } from './contract.js';

// What staff may set on stores, items and categories (the console's fields; the admin CLI for operators).

export const MAX_DURATION_SEC = 31_536_000;

const color = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour like #5865F2');

export const StoreFields = z.strictObject({
  name: SafeText.min(1).max(100),
  emoji: SafeText.min(1).max(64).nullable(),
  description: SafeText.max(500).nullable(),
  color: color.nullable(),
  enabled: z.boolean(),
  channelIds: z.array(SnowflakeId).max(25),
  sortOrder: z.number().int().min(0).max(10_000),
});

export const ItemFields = z
  .strictObject({
    storeId: z.number().int().min(1).nullable(),
    name: SafeText.min(1).max(100),
    description: SafeText.max(500).nullable(),
    emoji: SafeText.min(1).max(64).nullable(),
    price: z.number().int().min(0).max(MAX_BANK_AMOUNT),
    type: z.enum(['role', 'color', 'item']),
    category: SafeText.min(1).max(32).nullable(),
    roleId: SnowflakeId.nullable(),
    durationSec: z.number().int().min(0).max(MAX_DURATION_SEC),
    consumable: z.boolean(),
    fulfillment: z.boolean(),
    stock: z.number().int().min(0).max(MAX_STOCK).nullable(),
    perUserLimit: z.number().int().min(1).max(MAX_STOCK).nullable(),
    requiredRoleIds: z.array(SnowflakeId).max(20),
    minLevel: z.number().int().min(0).max(1000),
    enabled: z.boolean(),
    hidden: z.boolean(),
    sortOrder: z.number().int().min(0).max(10_000),
  })
  // A role or colour item gives a role; only a role can be timed.
  .refine((i) => i.type === 'item' || i.roleId !== null, { message: 'a role or color item needs roleId', path: ['roleId'] })
  .refine((i) => i.durationSec === 0 || i.roleId !== null, { message: 'durationSec needs a roleId', path: ['durationSec'] });

export const CategoryFields = z.strictObject({ name: SafeText.min(1).max(32), sortOrder: z.number().int().min(0).max(10_000) });

/** What a new store or item is besides the fields given (the admin CLI's flags, the console's form). */
export const STORE_DEFAULTS = { emoji: null, description: null, color: null, enabled: true, channelIds: [], sortOrder: 0 };
export const ITEM_DEFAULTS = {
  storeId: null, description: null, emoji: null, category: null, roleId: null, durationSec: 0, consumable: false, fulfillment: false,
  stock: null, perUserLimit: null, requiredRoleIds: [], minLevel: 0, enabled: true, hidden: false, sortOrder: 0,
};

export type StoreFieldsInput = z.infer<typeof StoreFields>;
export type ItemFieldsInput = z.infer<typeof ItemFields>;
