import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { findLedgerMismatches, saveBankSettings, DEFAULT_BANK_SETTINGS } from '../../../db/bank/accounts.js';
import type { Database } from '../../../db/schema.js';
import { insertItem, type ShopItemInput } from '../../../db/shop/items.js';
import { insertStore, type StoreInput } from '../../../db/shop/stores.js';
import { FEATURES, type Feature } from '../../../src/core/features.js';
import type { Scope } from '../../../src/core/scopes.js';
import { moveBalance } from '../../../src/bank/moveBalance.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';
import type { TestApp } from '../../harness/testApp.js';

// Shop items, stores and funded members written straight through the area's queries, and the shop API requests.

export const ITEM_DEFAULTS: ShopItemInput = {
  storeId: null,
  name: 'Sticker',
  description: null,
  emoji: null,
  price: 100,
  type: 'item',
  category: null,
  roleId: null,
  durationSec: 0,
  consumable: false,
  fulfillment: false,
  stock: null,
  perUserLimit: null,
  requiredRoleIds: [],
  minLevel: 0,
  enabled: true,
  hidden: false,
  sortOrder: 0,
};

export function shopRequests(db: () => Kysely<Database>, app: TestApp) {
  async function setup(options: { features?: Feature[]; scopes?: Scope[] } = {}) {
    const guild = await createTestGuild(db(), { features: options.features ?? [...FEATURES] });
    const created = await createTestKey(db(), guild, { scopes: options.scopes ?? ['shop:read', 'shop:write'], name: 'shop key' });
    await saveBankSettings(db(), guild.id, { ...DEFAULT_BANK_SETTINGS, currency: { name: 'gem', plural: 'gems', emoji: null } });
    return { guild, key: created.key, keyId: created.id };
  }

  const item = (guild: TestGuild, overrides: Partial<ShopItemInput> = {}) => insertItem(db(), guild.id, { ...ITEM_DEFAULTS, ...overrides }, new Date());
  const store = (guild: TestGuild, overrides: Partial<StoreInput> = {}) =>
    insertStore(db(), guild.id, { name: 'Extras', emoji: null, description: null, color: null, enabled: true, channelIds: [], sortOrder: 0, ...overrides }, new Date());

  /** A member with `balance` in the bank (credited through the ledger, so ledger sums stay exact). */
  async function member(guild: TestGuild, options: { balance?: number; roleIds?: string[]; bot?: boolean } = {}) {
    const userId = await addTestMember(db(), guild, { roleIds: options.roleIds ?? [], bot: options.bot });
    if (options.balance) {
      await db()
        .transaction()
        .execute((trx) =>
          moveBalance(trx, { guildId: guild.id, userId, type: 'add', amount: options.balance!, ledgerType: 'admin_add', reason: null, actorId: null, apiKeyId: null, at: new Date() }),
        );
    }
    return userId;
  }

  const headers = (key: string, idempotencyKey?: string) => ({ ...bearer(key), ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }) });
  const get = (guild: TestGuild, key: string, path: string) => app.http('GET', `/guilds/${guild.id}/shop${path}`, { headers: bearer(key) });
  const patchItem = (guild: TestGuild, key: string, itemId: number | string, body: unknown) =>
    app.http('PATCH', `/guilds/${guild.id}/shop/items/${itemId}`, { headers: bearer(key), body });
  const buy = (guild: TestGuild, key: string, userId: string, body: unknown, idempotencyKey?: string) =>
    app.http('POST', `/guilds/${guild.id}/shop/members/${userId}/purchases`, { headers: headers(key, idempotencyKey), body });
  const grant = (guild: TestGuild, key: string, userId: string, body: unknown, idempotencyKey?: string) =>
    app.http('POST', `/guilds/${guild.id}/shop/members/${userId}/grants`, { headers: headers(key, idempotencyKey), body });
  const refund = (guild: TestGuild, key: string, purchaseId: number | string, body: unknown = {}, idempotencyKey?: string) =>
    app.http('POST', `/guilds/${guild.id}/shop/purchases/${purchaseId}/refund`, { headers: headers(key, idempotencyKey), body });

  /** Everything a shop write touches: items, purchases, balances, ledger, events, audit rows, Idempotency-Key records. */
  async function snapshot(guildId: string) {
    const items = await db().selectFrom('shop_items').selectAll().where('guild_id', '=', guildId).orderBy('id').execute();
    const purchases = await db()
      .selectFrom('shop_purchases')
      .selectAll()
      // Set by the workflow start after the response, whenever it gets there.
      .select((eb) => [eb.val(null).as('effects_started_at'), eb.val(null).as('refund_started_at')])
      .where('guild_id', '=', guildId)
      .orderBy('id')
      .execute();
    const balances = await db().selectFrom('bank_accounts').select(['user_id', 'balance']).where('guild_id', '=', guildId).orderBy('user_id').execute();
    return { items, purchases, balances, writes: await countWrites(db(), guildId) };
  }

  /** Runs `act` (which asserts the refusal) and asserts that it changed nothing. */
  async function refused(guildId: string, act: () => Promise<void>) {
    const before = await snapshot(guildId);
    await act();
    expect(await snapshot(guildId)).toEqual(before);
  }

  const expectError = (res: { status: number; body: unknown }, status: number, error: string, extra: Record<string, unknown> = {}) => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error, message: expect.any(String), ...extra });
  };

  const events = (guildId: string, type: string) =>
    db().selectFrom('events').select(['type', 'data']).where('guild_id', '=', guildId).where('type', '=', type).orderBy('seq').execute();
  const auditRows = (guildId: string) =>
    db().selectFrom('audit_log').selectAll().where('guild_id', '=', guildId).where('action', 'like', 'shop.%').orderBy('id').execute();
  const ledger = (guildId: string, userId: string) =>
    db().selectFrom('bank_ledger').select(['type', 'amount', 'balance_after']).where('guild_id', '=', guildId).where('user_id', '=', userId).orderBy('id').execute();
  const expectLedgerBalanced = async (guildId: string) => expect(await findLedgerMismatches(db(), guildId)).toEqual([]);

  return { setup, item, store, member, get, patchItem, buy, grant, refund, snapshot, refused, expectError, events, auditRows, ledger, expectLedgerBalanced, snowflake };
}
