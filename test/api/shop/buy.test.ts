import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createTestKey } from '../../harness/fixtures.js';
import { shopRequests } from './shopBed.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');

// Buys start their effects workflow on a task queue nobody polls: the HTTP layer and the transaction are under test.
const { db, app } = useApiTestBed({ now: NOW, temporal: true });
const { setup, item, store, member, buy, get, refused, expectError, events, auditRows, ledger, expectLedgerBalanced, snowflake } = shopRequests(db, app);

const ROLE = '323456789012345678';

describe('POST /shop/members/{userId}/purchases (buy)', () => {
  it('charges the price, takes a unit of stock, writes the purchase, its events and audit row; 201 ShopBuyResult', async () => {
    const { guild, key, keyId } = await setup();
    const extras = await store(guild, { name: 'Extras' });
    const vip = await item(guild, { name: 'VIP', emoji: '👑', type: 'role', roleId: ROLE, price: 250, stock: 2, durationSec: 3600, storeId: extras.id });
    const buyer = await member(guild, { balance: 1000 });

    const res = await buy(guild, key, buyer, { itemId: vip.id, reason: 'Birthday' });
    expect(res.status).toBe(201);
    const purchase = {
      id: expect.any(Number),
      userId: buyer,
      item: { id: vip.id, name: 'VIP', emoji: '👑', type: 'role' },
      store: { id: extras.id, name: 'Extras' },
      source: 'buy',
      status: 'owned',
      pricePaid: 250,
      roleId: ROLE,
      expiresAt: new Date(NOW.getTime() + 3600_000).toISOString(),
      createdAt: NOW.toISOString(),
      refundedAt: null,
      refundedBy: null,
    };
    expect(res.body).toEqual({ purchase, transactionId: expect.any(Number), previousBalance: 1000, balance: 750 });
    expect((await get(guild, key, `/items/${vip.id}`)).body.stock).toBe(1);
    expect((await get(guild, key, `/purchases/${res.body.purchase.id}`)).body).toEqual(res.body.purchase);
    expect((await ledger(guild.id, buyer)).at(-1)).toEqual({ type: 'shop_purchase', amount: -250, balance_after: 750 });
    await expectLedgerBalanced(guild.id);

    const bank = (await events(guild.id, 'bank.transaction')).at(-1)!;
    expect(bank.data).toMatchObject({ transactionId: res.body.transactionId, userId: buyer, type: 'shop_purchase', amount: -250, balanceAfter: 750, reason: 'Birthday', actorId: guild.ownerId });
    expect(await events(guild.id, 'shop.purchase')).toEqual([
      {
        type: 'shop.purchase',
        data: {
          purchaseId: res.body.purchase.id,
          userId: buyer,
          item: { id: vip.id, name: 'VIP', emoji: '👑', type: 'role' },
          store: { id: extras.id, name: 'Extras' },
          price: 250,
          status: 'owned',
          roleId: ROLE,
          expiresAt: purchase.expiresAt,
          createdAt: NOW.toISOString(),
        },
      },
    ]);
    expect(await auditRows(guild.id)).toEqual([
      expect.objectContaining({
        action: 'shop.buy',
        actor_type: 'api_key',
        api_key_id: keyId,
        target_type: 'member',
        target_id: buyer,
        data: { purchaseId: res.body.purchase.id, itemId: vip.id, price: 250, transactionId: res.body.transactionId, reason: 'Birthday' },
      }),
    ]);
  });

  it('a free item charges nothing (no ledger row) and reports the balance; a hidden item can be bought', async () => {
    const { guild, key } = await setup();
    const gift = await item(guild, { price: 0, hidden: true });
    const buyer = await member(guild, { balance: 40 });
    const res = await buy(guild, key, buyer, { itemId: gift.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ transactionId: null, previousBalance: 40, balance: 40, purchase: { pricePaid: 0, expiresAt: null, store: { id: null, name: null } } });
    expect(await ledger(guild.id, buyer)).toHaveLength(1);
  });

  it('the exact balance buys the item; one more answers 409 INSUFFICIENT_FUNDS with the balance; nothing changes', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 100, stock: 5 });
    const buyer = await member(guild, { balance: 100 });
    expect((await buy(guild, key, buyer, { itemId: sticker.id })).body).toMatchObject({ balance: 0 });
    await refused(guild.id, async () => expectError(await buy(guild, key, buyer, { itemId: sticker.id }), 409, 'INSUFFICIENT_FUNDS', { balance: 0 }));
    const newcomer = await member(guild);
    await refused(guild.id, async () => expectError(await buy(guild, key, newcomer, { itemId: sticker.id }), 409, 'INSUFFICIENT_FUNDS', { balance: 0 }));
  });

  it('the last unit sells; then 409 OUT_OF_STOCK whatever the balance; nothing changes', async () => {
    const { guild, key } = await setup();
    const rare = await item(guild, { stock: 1 });
    const rich = await member(guild, { balance: 1000 });
    const poor = await member(guild);
    expect((await buy(guild, key, rich, { itemId: rare.id })).status).toBe(201);
    await refused(guild.id, async () => {
      expectError(await buy(guild, key, rich, { itemId: rare.id }), 409, 'OUT_OF_STOCK');
      expectError(await buy(guild, key, poor, { itemId: rare.id }), 409, 'OUT_OF_STOCK');
    });
  });

  it('a disabled item, or an item of a disabled store, answers 409 SHOP_ITEM_DISABLED; nothing changes', async () => {
    const { guild, key } = await setup();
    const off = await item(guild, { enabled: false });
    const closed = await store(guild, { enabled: false });
    const inClosed = await item(guild, { storeId: closed.id });
    const buyer = await member(guild, { balance: 1000 });
    await refused(guild.id, async () => {
      expectError(await buy(guild, key, buyer, { itemId: off.id }), 409, 'SHOP_ITEM_DISABLED');
      expectError(await buy(guild, key, buyer, { itemId: inClosed.id }), 409, 'SHOP_ITEM_DISABLED');
    });
  });

  it('required roles (every one) and minLevel: 409 REQUIREMENT_NOT_MET with `requirement`; met, the buy goes through', async () => {
    const { guild, key } = await setup();
    const [r1, r2] = [snowflake(), snowflake()];
    const gated = await item(guild, { requiredRoleIds: [r1, r2] });
    const leveled = await item(guild, { minLevel: 2 });
    const partly = await member(guild, { balance: 1000, roleIds: [r1] });
    const both = await member(guild, { balance: 1000, roleIds: [r1, r2] });
    await refused(guild.id, async () => {
      expectError(await buy(guild, key, partly, { itemId: gated.id }), 409, 'REQUIREMENT_NOT_MET', { requirement: 'roles' });
      expectError(await buy(guild, key, both, { itemId: leveled.id }), 409, 'REQUIREMENT_NOT_MET', { requirement: 'level' });
    });
    expect((await buy(guild, key, both, { itemId: gated.id })).status).toBe(201);
    // Level 2 starts at 100 + 155 = 255 XP (src/levels/curve.ts).
    await db().insertInto('level_members').values({ guild_id: guild.id, user_id: both, xp: 254, last_xp_at: null }).execute();
    expectError(await buy(guild, key, both, { itemId: leveled.id }), 409, 'REQUIREMENT_NOT_MET', { requirement: 'level' });
    await db().updateTable('level_members').set({ xp: 255 }).where('guild_id', '=', guild.id).where('user_id', '=', both).execute();
    expect((await buy(guild, key, both, { itemId: leveled.id })).status).toBe(201);
  });

  it('perUserLimit: 409 PURCHASE_LIMIT_REACHED with the limit once reached; grants count, refunded units do not', async () => {
    const { guild, key } = await setup();
    const limited = await item(guild, { perUserLimit: 2, price: 10 });
    const buyer = await member(guild, { balance: 1000 });
    const first = await buy(guild, key, buyer, { itemId: limited.id });
    expect((await buy(guild, key, buyer, { itemId: limited.id })).status).toBe(201);
    await refused(guild.id, async () => expectError(await buy(guild, key, buyer, { itemId: limited.id }), 409, 'PURCHASE_LIMIT_REACHED', { perUserLimit: 2 }));
    const other = await member(guild, { balance: 1000 });
    expect((await buy(guild, key, other, { itemId: limited.id })).status).toBe(201);
    expect((await app.http('POST', `/guilds/${guild.id}/shop/purchases/${first.body.purchase.id}/refund`, { headers: { Authorization: `Bearer ${key}` }, body: {} })).status).toBe(200);
    expect((await buy(guild, key, buyer, { itemId: limited.id })).status).toBe(201);
  });

  it('a priced item while the Bank feature is off answers 409 BANK_DISABLED; a free one is still bought', async () => {
    const { guild, key } = await setup({ features: ['shop'] });
    const priced = await item(guild, { price: 5 });
    const free = await item(guild, { price: 0 });
    const buyer = await member(guild);
    await refused(guild.id, async () => expectError(await buy(guild, key, buyer, { itemId: priced.id }), 409, 'BANK_DISABLED'));
    expect((await buy(guild, key, buyer, { itemId: free.id })).status).toBe(201);
  });

  it('an unknown item answers 404 SHOP_ITEM_NOT_FOUND; a non-member 404 MEMBER_NOT_FOUND; a bot 422 BOT_ACCOUNT; nothing changes', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild);
    const buyer = await member(guild, { balance: 1000 });
    const bot = await member(guild, { bot: true });
    const foreign = await item((await setup()).guild);
    await refused(guild.id, async () => {
      expectError(await buy(guild, key, buyer, { itemId: 999_999 }), 404, 'SHOP_ITEM_NOT_FOUND');
      expectError(await buy(guild, key, buyer, { itemId: foreign.id }), 404, 'SHOP_ITEM_NOT_FOUND');
      expectError(await buy(guild, key, snowflake(), { itemId: sticker.id }), 404, 'MEMBER_NOT_FOUND');
      expectError(await buy(guild, key, bot, { itemId: sticker.id }), 422, 'BOT_ACCOUNT');
    });
  });

  it.each([
    [{}, 'itemId'],
    [{ itemId: 0 }, 'itemId'],
    [{ itemId: '1' }, 'itemId'],
    [{ itemId: 2_147_483_648 }, 'itemId'],
    [{ itemId: 1, reason: 'x'.repeat(501) }, 'reason'],
    [{ itemId: 1, quantity: 2 }, ''],
  ])('body %j answers 400 INVALID_REQUEST; nothing changes', async (body, path) => {
    const { guild, key } = await setup();
    const buyer = await member(guild, { balance: 1000 });
    await refused(guild.id, async () => {
      const res = await buy(guild, key, buyer, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'body', path })] });
    });
  });

  it('needs shop:write (403 INSUFFICIENT_SCOPE) and the Shop feature (409 FEATURE_DISABLED); nothing changes', async () => {
    const { guild } = await setup();
    const sticker = await item(guild);
    const buyer = await member(guild, { balance: 1000 });
    const { key: readOnly } = await createTestKey(db(), guild, { scopes: ['shop:read'] });
    await refused(guild.id, async () => expectError(await buy(guild, readOnly, buyer, { itemId: sticker.id }), 403, 'INSUFFICIENT_SCOPE', { required: 'shop:write' }));
    const off = await setup({ features: ['bank'] });
    const offItem = await item(off.guild);
    const offBuyer = await member(off.guild, { balance: 1000 });
    await refused(off.guild.id, async () => expectError(await buy(off.guild, off.key, offBuyer, { itemId: offItem.id }), 409, 'FEATURE_DISABLED'));
  });
});

describe('Idempotency-Key on the buy', () => {
  it('a replay answers the stored 201 with Idempotent-Replayed and charges once; another body answers 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 30, stock: 10 });
    const other = await item(guild, { price: 30 });
    const buyer = await member(guild, { balance: 100 });
    const first = await buy(guild, key, buyer, { itemId: sticker.id }, 'buy-1');
    expect(first.status).toBe(201);
    await refused(guild.id, async () => {
      const again = await buy(guild, key, buyer, { itemId: sticker.id }, 'buy-1');
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expectError(await buy(guild, key, buyer, { itemId: other.id }, 'buy-1'), 422, 'IDEMPOTENCY_KEY_REUSED');
    });
    expect((await buy(guild, key, buyer, { itemId: sticker.id }, 'buy-2')).body).toMatchObject({ balance: 40 });
  });

  it('a refused buy stores nothing under its key: the same key succeeds once the member can pay', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 50 });
    const buyer = await member(guild, { balance: 10 });
    expectError(await buy(guild, key, buyer, { itemId: sticker.id }, 'retry-me'), 409, 'INSUFFICIENT_FUNDS', { balance: 10 });
    await member(guild); // unrelated write
    await db().updateTable('bank_accounts').set({ balance: 60 }).where('guild_id', '=', guild.id).where('user_id', '=', buyer).execute();
    expect((await buy(guild, key, buyer, { itemId: sticker.id }, 'retry-me')).status).toBe(201);
  });
});
