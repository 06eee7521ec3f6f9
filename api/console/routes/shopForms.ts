import type { z } from 'zod';
import type { ShopItemRecord } from '../../../db/shop/items.js';
import type { StoreRecord } from '../../../db/shop/stores.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { ITEM_DEFAULTS, ItemFields, StoreFields, type ItemFieldsInput, type StoreFieldsInput } from '../../../src/shop/catalogInput.js';
import { MAX_RECORD_ID, ShopItemPatch, ShopRefundRequest } from '../../../src/shop/contract.js';
import { FormRejection } from '../formFlow.js';
import type { FieldError } from '../views/formParts.js';
import { ITEM_FIELDS } from '../views/shopItemForm.js';
import { REFUND_FIELDS } from '../views/shopPurchasePages.js';
import { STORE_CHANNEL_TYPES, STORE_FIELDS } from '../views/shopStorePages.js';

// The shop's forms read into the catalog's fields, checked by the same schemas as the admin CLI's and the API's;
// what is wrong comes back on the field, in words.

const ITEM_MESSAGES: Record<string, [string, string]> = {
  name: [ITEM_FIELDS.name, 'Give a name of 1 to 100 characters, without control characters.'],
  description: [ITEM_FIELDS.description, 'Give a description of at most 500 characters, or none.'],
  emoji: [ITEM_FIELDS.emoji, 'Give an emoji of at most 64 characters, or none.'],
  price: [ITEM_FIELDS.price, 'Give a price: a whole number from 0 to 1,000,000,000,000.'],
  type: [ITEM_FIELDS.type, 'Choose what the item is.'],
  roleId: [ITEM_FIELDS.role, 'Pick the role a role or colour item gives.'],
  durationSec: [ITEM_FIELDS.duration, 'Give the seconds a timed role lasts, 0 to 31,536,000; a timed item needs a role.'],
  stock: [ITEM_FIELDS.stock, 'Give the stock, a whole number from 0 to 1,000,000, or leave it empty for unlimited.'],
  perUserLimit: [ITEM_FIELDS.limit, 'Give the most units a member may have, 1 to 1,000,000, or leave it empty.'],
  minLevel: [ITEM_FIELDS.minLevel, 'Give a level from 0 to 1,000.'],
  storeId: [ITEM_FIELDS.store, 'Pick a store of this server.'],
  sortOrder: [ITEM_FIELDS.sort, 'Give a position from 0 to 10,000.'],
};

const STORE_MESSAGES: Record<string, [string, string]> = {
  name: [STORE_FIELDS.name, 'Give a name of 1 to 100 characters, without control characters.'],
  emoji: [STORE_FIELDS.emoji, 'Give an emoji of at most 64 characters, or none.'],
  description: [STORE_FIELDS.description, 'Give a description of at most 500 characters, or none.'],
  color: [STORE_FIELDS.color, 'Give a colour like #5865F2, or none.'],
  sortOrder: [STORE_FIELDS.sort, 'Give a position from 0 to 10,000.'],
  channelIds: [STORE_FIELDS.channels, 'Pick at most 25 channels.'],
};

/** A number field as the schema takes it: empty is `empty`, a whole number is a number, anything else NaN (refused). */
const numberOf = (raw: string | null, empty: number | null): number | null => {
  const v = (raw ?? '').trim();
  if (v === '') return empty;
  return /^\d{1,15}$/.test(v) ? Number(v) : Number.NaN;
};
const textOf = (raw: string | null) => {
  const v = (raw ?? '').trim();
  return v === '' ? null : v;
};

/** Checks `value` with `schema`; each issue becomes its field's sentence (one per field), refused 400 INVALID_INPUT. */
function checked<S extends z.ZodType>(schema: S, value: unknown, messages: Record<string, [string, string]>): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = new Map<string, FieldError>();
  for (const issue of result.error.issues) {
    const [field, message] = messages[String(issue.path[0])] ?? [undefined, issue.message];
    errors.set(field ?? message, { field, message });
  }
  throw new FormRejection(400, 'INVALID_INPUT', [...errors.values()]);
}

/**
 * The store form's fields. Its channels are the picker's ticks: each one of the server's text channels, or one the
 * store already names (kept in sight by the picker even once the server no longer lists it).
 */
export function storeFieldsOf(form: URLSearchParams, directory: ServerDirectory, current?: StoreRecord): StoreFieldsInput {
  const ticked = form.getAll(STORE_FIELDS.channels);
  // The same channels in the picker's order are no change (the admin CLI may have saved them in another).
  const same = current && ticked.length === current.channelIds.length && ticked.every((id) => current.channelIds.includes(id));
  const channelIds = same ? current.channelIds : ticked;
  const known = (id: string) => current?.channelIds.includes(id) || directory.channels.some((c) => c.id === id && STORE_CHANNEL_TYPES.includes(c.type));
  if (!channelIds.every(known)) {
    throw new FormRejection(400, 'INVALID_INPUT', [{ field: STORE_FIELDS.channels, message: 'Pick text channels of this server.' }]);
  }
  const fields = {
    name: (form.get(STORE_FIELDS.name) ?? '').trim(),
    emoji: textOf(form.get(STORE_FIELDS.emoji)),
    description: textOf(form.get(STORE_FIELDS.description)),
    color: textOf(form.get(STORE_FIELDS.color)),
    enabled: form.get(STORE_FIELDS.enabled) === 'on',
    channelIds,
    sortOrder: numberOf(form.get(STORE_FIELDS.sort), 0),
  };
  return checked(StoreFields, fields, STORE_MESSAGES);
}

/** A store id past the column's range is no store of this server (refused as such, not left to the database). */
const storeIdOf = (raw: string | null) => {
  const id = numberOf(raw, null);
  return id !== null && id > MAX_RECORD_ID ? Number.NaN : id;
};

/** The item form's fields; a new item gets the catalog's defaults for what the form does not carry. */
export function itemFieldsOf(form: URLSearchParams, directory: ServerDirectory, current?: ShopItemRecord): ItemFieldsInput {
  const roleId = textOf(form.get(ITEM_FIELDS.role));
  if (roleId !== null && !directory.roles.some((r) => r.id === roleId && !r.managed)) {
    throw new FormRejection(400, 'INVALID_INPUT', [{ field: ITEM_FIELDS.role, message: 'Pick a role of this server that the bot can give.' }]);
  }
  const sent = {
    name: (form.get(ITEM_FIELDS.name) ?? '').trim(),
    description: textOf(form.get(ITEM_FIELDS.description)),
    emoji: textOf(form.get(ITEM_FIELDS.emoji)),
    price: numberOf(form.get(ITEM_FIELDS.price), Number.NaN),
    type: form.get(ITEM_FIELDS.type),
    roleId,
    durationSec: numberOf(form.get(ITEM_FIELDS.duration), 0),
    perUserLimit: numberOf(form.get(ITEM_FIELDS.limit), null),
    minLevel: numberOf(form.get(ITEM_FIELDS.minLevel), 0),
    storeId: storeIdOf(form.get(ITEM_FIELDS.store)),
    hidden: form.get(ITEM_FIELDS.hidden) === 'on',
    sortOrder: numberOf(form.get(ITEM_FIELDS.sort), 0),
    ...(current ? {} : { stock: numberOf(form.get(ITEM_FIELDS.stock), null) }),
  };
  const { id: _id, ...held } = current ?? { id: 0, ...ITEM_DEFAULTS };
  return checked(ItemFields, { ...held, ...sent }, ITEM_MESSAGES);
}

/** What an edit changes: the checked fields that differ from the record's (saving the form unchanged changes nothing). */
function changesOf<T extends object>(whole: T, current: object): Partial<T> {
  const changed = Object.entries(whole).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify((current as Record<string, unknown>)[key]));
  return Object.fromEntries(changed) as Partial<T>;
}

export const itemChangesOf = (form: URLSearchParams, directory: ServerDirectory, current: ShopItemRecord): Partial<ItemFieldsInput> =>
  changesOf(itemFieldsOf(form, directory, current), current);

export const storeChangesOf = (form: URLSearchParams, directory: ServerDirectory, current: StoreRecord): Partial<StoreFieldsInput> =>
  changesOf(storeFieldsOf(form, directory, current), current);

/** The stock form, checked by the API's PATCH body schema (0 to 1,000,000, empty is unlimited). */
export function stockOf(form: URLSearchParams): number | null {
  return checked(ShopItemPatch, { stock: numberOf(form.get(ITEM_FIELDS.stock), null) }, { stock: ITEM_MESSAGES.stock! }).stock ?? null;
}

/** The refund's reason, checked by the API's refund body schema; empty is none. */
export function refundReasonOf(form: URLSearchParams): string | null {
  const reason = textOf(form.get(REFUND_FIELDS.reason));
  const messages = { reason: [REFUND_FIELDS.reason, 'Give a reason of at most 500 characters, without control characters.'] as [string, string] };
  return checked(ShopRefundRequest, { reason }, messages).reason ?? null;
}
