import type { z } from 'zod';
import { listItems } from '../../db/shop/items.js';
import { listCategories, listStores } from '../../db/shop/stores.js';
import { CategoryFields, ITEM_DEFAULTS, ItemFields, STORE_DEFAULTS, StoreFields } from '../../src/shop/catalogInput.js';
import { changeCategory, changeItem, changeStore, createCategory, createItem, createStore } from '../../src/shop/manageCatalog.js';
import { oneOf, optional, snowflake, wholeNumber } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminContext, type CommandGroup } from './command.js';
import { usageError } from './errors.js';
import { requireGuild } from './requireGuild.js';

// The shop's catalog for operators: stores, items and categories, as staff manage them in the console.

const ID = { id: { type: 'string', placeholder: 'N', required: true, help: 'the record id' } } as const;
const str = (help: string, placeholder = 'TEXT') => ({ type: 'string', placeholder, help }) as const;

const STORE_FLAGS = {
  name: str('store name (1 to 100 characters)'),
  emoji: str('emoji, or none'),
  description: str('description, or none'),
  color: str('#RRGGBB, or none', 'HEX'),
  channels: str('channel ids where the store is shown, comma-separated (empty: none)', 'IDS'),
  enabled: str('on|off', 'on|off'),
  sort: str('position among the stores (0 first)', 'N'),
} as const;

const ITEM_FLAGS = {
  name: str('item name (1 to 100 characters)'),
  price: str('price in the server currency', 'N'),
  type: str('role|color|item', 'TYPE'),
  store: str('main or a store id (default main)', 'main|ID'),
  category: str('an existing category, or none'),
  role: str('role given (role and color items), or none', 'ID'),
  'duration-sec': str('timed role length in seconds (0 = permanent)', 'N'),
  stock: str('units left, or unlimited', 'N'),
  'per-user-limit': str('most units one member may have, or none', 'N'),
  'required-roles': str('role ids a buyer must all hold, comma-separated', 'IDS'),
  'min-level': str('lowest level that may buy it', 'N'),
  emoji: str('emoji, or none'),
  description: str('description, or none'),
  enabled: str('on|off', 'on|off'),
  hidden: str('on|off (hidden items are not shown in the store but can be bought)', 'on|off'),
  consumable: str('on|off', 'on|off'),
  fulfillment: str('on|off (staff deliver it)', 'on|off'),
  sort: str('position in the store (0 first)', 'N'),
} as const;

const nullable = (v: string, word: string) => (v === word ? null : v);
const onOff = (v: string, flag: string) => oneOf(v, flag, ['on', 'off'] as const) === 'on';
const ids = (v: string, flag: string) => (v === '' ? [] : v.split(',').map((id) => snowflake(id.trim(), flag)));
const count = (v: string, flag: string, max = 1_000_000_000_000) => wholeNumber(v, flag, 0, max);

type Flags<F> = { [K in keyof F]?: string | undefined };

/** Only the flags given, as fields; undefined values are dropped so an update changes only those. */
const defined = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

function storeFields(f: Flags<typeof STORE_FLAGS>) {
  return defined({
    name: f.name,
    emoji: optional(f.emoji, (v) => nullable(v, 'none')),
    description: optional(f.description, (v) => nullable(v, 'none')),
    color: optional(f.color, (v) => nullable(v, 'none')),
    channelIds: optional(f.channels, (v) => ids(v, 'channels')),
    enabled: optional(f.enabled, (v) => onOff(v, 'enabled')),
    sortOrder: optional(f.sort, (v) => count(v, 'sort', 10_000)),
  });
}

function itemFields(f: Flags<typeof ITEM_FLAGS>) {
  return defined({
    name: f.name,
    price: optional(f.price, (v) => count(v, 'price')),
    type: optional(f.type, (v) => oneOf(v, 'type', ['role', 'color', 'item'] as const)),
    storeId: optional(f.store, (v) => (v === 'main' ? null : wholeNumber(v, 'store', 1, 2_147_483_647))),
    category: optional(f.category, (v) => nullable(v, 'none')),
    roleId: optional(f.role, (v) => (v === 'none' ? null : snowflake(v, 'role'))),
    durationSec: optional(f['duration-sec'], (v) => count(v, 'duration-sec')),
    stock: optional(f.stock, (v) => (v === 'unlimited' ? null : count(v, 'stock'))),
    perUserLimit: optional(f['per-user-limit'], (v) => (v === 'none' ? null : count(v, 'per-user-limit'))),
    requiredRoleIds: optional(f['required-roles'], (v) => ids(v, 'required-roles')),
    minLevel: optional(f['min-level'], (v) => count(v, 'min-level')),
    emoji: optional(f.emoji, (v) => nullable(v, 'none')),
    description: optional(f.description, (v) => nullable(v, 'none')),
    enabled: optional(f.enabled, (v) => onOff(v, 'enabled')),
    hidden: optional(f.hidden, (v) => onOff(v, 'hidden')),
    consumable: optional(f.consumable, (v) => onOff(v, 'consumable')),
    fulfillment: optional(f.fulfillment, (v) => onOff(v, 'fulfillment')),
    sortOrder: optional(f.sort, (v) => count(v, 'sort', 10_000)),
  });
}

/** Checks fields against the catalog's rules; a wrong value is a usage error naming the field. */
function valid<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw usageError('INVALID_ARGUMENT', result.error.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; '));
}

async function inGuild<T>(ctx: AdminContext, guildFlag: string, operator: string | undefined, act: (c: { guildId: string; actor: ReturnType<typeof operatorActor>; at: Date }) => Promise<T>) {
  const guildId = snowflake(guildFlag, 'guild');
  await requireGuild(ctx.db, guildId);
  return act({ guildId, actor: operatorActor(ctx, operator), at: ctx.clock.now() });
}

const recordId = (v: string) => wholeNumber(v, 'id', 1, 2_147_483_647);
const out = (json: unknown, line: string) => ({ json, text: [line] });
const listing = (json: unknown[], lines: string[]) => ({ json, text: lines.length > 0 ? lines : ['(none)'] });

export const shopGroup: CommandGroup = {
  name: 'shop',
  summary: "a server's shop: stores, items, categories",
  commands: [
    defineCommand({
      name: 'store-create',
      summary: 'create a store (the built-in Main store always exists)',
      flags: { ...GUILD_FLAG, ...STORE_FLAGS, name: { ...STORE_FLAGS.name, required: true }, ...OPERATOR_FLAG },
      run: (f, ctx) =>
        inGuild(ctx, f.guild, f.operator, async (c) => {
          const fields = valid(StoreFields, { ...STORE_DEFAULTS, ...storeFields(f) });
          const store = await ctx.db.transaction().execute((trx) => createStore(trx, { ...c, fields }));
          return out(store, `Created store ${store.id} "${store.name}" in guild ${c.guildId}.`);
        }),
    }),
    defineCommand({
      name: 'store-update',
      summary: "change a store's fields (only the flags given)",
      flags: { ...GUILD_FLAG, ...ID, ...STORE_FLAGS, ...OPERATOR_FLAG },
      run: (f, ctx) =>
        inGuild(ctx, f.guild, f.operator, async (c) => {
          const fields = valid(StoreFields.partial(), storeFields(f));
          const store = await ctx.db.transaction().execute((trx) => changeStore(trx, { ...c, storeId: recordId(f.id), fields }));
          return out(store, `Updated store ${store.id} "${store.name}".`);
        }),
    }),
    defineCommand({
      name: 'store-list',
      summary: "list the server's stores (Main is built in and not listed)",
      flags: { ...GUILD_FLAG },
      run: (f, ctx) =>
        inGuild(ctx, f.guild, undefined, async (c) => {
          const stores = await listStores(ctx.db, c.guildId);
          return listing(stores, stores.map((s) => `${s.id}\t${s.name}\t${s.enabled ? 'on' : 'off'}\tsort ${s.sortOrder}`));
        }),
    }),
    defineCommand({
      name: 'item-create',
      summary: 'create an item',
      flags: { ...GUILD_FLAG, ...ITEM_FLAGS, name: { ...ITEM_FLAGS.name, required: true }, price: { ...ITEM_FLAGS.price, required: true }, type: { ...ITEM_FLAGS.type, required: true }, ...OPERATOR_FLAG },
      run: (f, ctx) =>
        inGuild(ctx, f.guild, f.operator, async (c) => {
          const fields = valid(ItemFields, { ...ITEM_DEFAULTS, ...itemFields(f) });
          const item = await ctx.db.transaction().execute((trx) => createItem(trx, { ...c, fields }));
          return out(item, `Created item ${item.id} "${item.name}" (${item.type}, price ${item.price}) in guild ${c.guildId}.`);
        }),
    }),
    defineCommand({
      name: 'item-update',
      summary: "change an item's fields (only the flags given)",
      flags: { ...GUILD_FLAG, ...ID, ...ITEM_FLAGS, ...OPERATOR_FLAG },
      run: (f, ctx) =>
        inGuild(ctx, f.guild, f.operator, async (c) => {
          const item = await ctx.db.transaction().execute((trx) => changeItem(trx, { ...c, itemId: recordId(f.id), fields: itemFields(f) }));
          return out(item, `Updated item ${item.id} "${item.name}".`);
        }),
    }),
    defineCommand({
      name: 'item-list',
      summary: 'list the items in sort order, disabled ones too',
      flags: { ...GUILD_FLAG, store: ITEM_FLAGS.store },
      run: (f, ctx) =>
        inGuild(ctx, f.guild, undefined, async (c) => {
          const storeId = optional(f.store, (v) => (v === 'main' ? null : wholeNumber(v, 'store', 1, 2_147_483_647)));
          const items = await listItems(ctx.db, c.guildId, { storeId, includeDisabled: true });
          const line = (i: (typeof items)[number]) => `${i.id}\t${i.name}\t${i.type}\tprice ${i.price}\tstock ${i.stock ?? 'unlimited'}\t${i.enabled ? 'on' : 'off'}`;
          return listing(items, items.map(line));
        }),
    }),
    defineCommand({
      name: 'category-create',
      summary: 'create an item category',
      flags: { ...GUILD_FLAG, name: { ...str('category name (1 to 32 characters)'), required: true }, sort: str('position (0 first)', 'N'), ...OPERATOR_FLAG },
      run: (f, ctx) =>
        inGuild(ctx, f.guild, f.operator, async (c) => {
          const fields = valid(CategoryFields, { name: f.name, sortOrder: optional(f.sort, (v) => count(v, 'sort', 10_000)) ?? 0 });
          await ctx.db.transaction().execute((trx) => createCategory(trx, { ...c, ...fields }));
          return out(fields, `Created category "${fields.name}" in guild ${c.guildId}.`);
        }),
    }),
    defineCommand({
      name: 'category-update',
      summary: 'rename a category (its items follow) or move it',
      flags: { ...GUILD_FLAG, name: { ...str('the category'), required: true }, 'rename-to': str('its new name'), sort: str('position (0 first)', 'N'), ...OPERATOR_FLAG },
      run: (f, ctx) =>
        inGuild(ctx, f.guild, f.operator, async (c) => {
          const renameTo = optional(f['rename-to'], (v) => valid(CategoryFields.shape.name, v));
          const sortOrder = optional(f.sort, (v) => count(v, 'sort', 10_000));
          const name = await ctx.db.transaction().execute((trx) => changeCategory(trx, { ...c, name: f.name, renameTo, sortOrder }));
          return out({ name, sortOrder: sortOrder ?? null }, `Updated category "${name}".`);
        }),
    }),
    defineCommand({
      name: 'category-list',
      summary: 'list the item categories in order',
      flags: { ...GUILD_FLAG },
      run: (f, ctx) =>
        inGuild(ctx, f.guild, undefined, async (c) => {
          const categories = await listCategories(ctx.db, c.guildId);
          return listing(categories, categories.map((cat) => `${cat.name}\tsort ${cat.sortOrder}`));
        }),
    }),
  ],
};
