import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createTestKey } from '../../harness/fixtures.js';
import { shopRequests } from './shopBed.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');

const { db, app } = useApiTestBed({ now: NOW, temporal: true });
const { setup, item, member, buy, grant, refund, get, refused, expectError, events, auditRows, ledger, expectLedgerBalanced, snowflake } = shopRequests(db, app);

describe('POST /shop/members/{userId}/grants', () => {
  it('gives a unit free, skipping price, requirements, limit and the enabled switch; takes stock; emits shop.purchase', async () => {
    const { guild, key, keyId } = await setup();
    const locked = await item(guild, { price: 500, enabled: false, minLevel: 50, requiredRoleIds: [snowflake()], perUserLimit: 1, stock: 2 });
    const lucky = await member(guild);
    const res = await grant(guild, key, lucky, { itemId: locked.id, reason: 'Contest' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userId: lucky, source: 'grant', status: 'owned', pricePaid: 0, item: { id: locked.id }, createdAt: NOW.toISOString() });
    expect((await grant(guild, key, lucky, { itemId: locked.id })).status).toBe(201);
    expect((await get(guild, key, `/items/${locked.id}`)).body.stock).toBe(0);
    await refused(guild.id, async () => expectError(await grant(guild, key, lucky, { itemId: locked.id }), 409, 'OUT_OF_STOCK'));
    expect(await ledger(guild.id, lucky)).toEqual([]);
    expect((await events(guild.id, 'shop.purchase')).map((e) => e.data)).toEqual([
      expect.objectContaining({ purchaseId: res.body.id, userId: lucky, price: 0, status: 'owned' }),
      expect.objectContaining({ price: 0 }),
    ]);
    expect((await auditRows(guild.id))[0]).toMatchObject({ action: 'shop.grant', api_key_id: keyId, target_id: lucky, data: { purchaseId: res.body.id, itemId: locked.id, reason: 'Contest' } });
  });

  it('unknown item 404 SHOP_ITEM_NOT_FOUND, non-member 404 MEMBER_NOT_FOUND, bot 422 BOT_ACCOUNT, bad body 400; nothing changes', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild);
    const lucky = await member(guild);
    const bot = await member(guild, { bot: true });
    await refused(guild.id, async () => {
      expectError(await grant(guild, key, lucky, { itemId: 999_999 }), 404, 'SHOP_ITEM_NOT_FOUND');
      expectError(await grant(guild, key, snowflake(), { itemId: sticker.id }), 404, 'MEMBER_NOT_FOUND');
      expectError(await grant(guild, key, bot, { itemId: sticker.id }), 422, 'BOT_ACCOUNT');
      const bad = await grant(guild, key, lucky, { itemId: -3 });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'body', path: 'itemId' })] });
    });
  });

  it('Idempotency-Key: a replay grants once; needs shop:write', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { stock: 5 });
    const lucky = await member(guild);
    const first = await grant(guild, key, lucky, { itemId: sticker.id }, 'g-1');
    await refused(guild.id, async () => {
      const again = await grant(guild, key, lucky, { itemId: sticker.id }, 'g-1');
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
    });
    const { key: readOnly } = await createTestKey(db(), guild, { scopes: ['shop:read'] });
    await refused(guild.id, async () => expectError(await grant(guild, readOnly, lucky, { itemId: sticker.id }), 403, 'INSUFFICIENT_SCOPE', { required: 'shop:write' }));
  });
});

describe('POST /shop/purchases/{purchaseId}/refund', () => {
  it('credits pricePaid, restores stock, marks the purchase refunded and emits shop.refund; 200 ShopRefundResult', async () => {
    const { guild, key, keyId } = await setup();
    const vip = await item(guild, { name: 'VIP', type: 'role', roleId: snowflake(), price: 300, stock: 1 });
    const buyer = await member(guild, { balance: 500 });
    const bought = await buy(guild, key, buyer, { itemId: vip.id });
    const purchaseId = bought.body.purchase.id;

    const res = await refund(guild, key, purchaseId, { reason: 'Changed mind' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      purchase: { ...bought.body.purchase, status: 'refunded', refundedAt: NOW.toISOString(), refundedBy: guild.ownerId },
      transactionId: expect.any(Number),
      balance: 500,
    });
    expect((await get(guild, key, `/purchases/${purchaseId}`)).body).toEqual(res.body.purchase);
    expect((await get(guild, key, `/items/${vip.id}`)).body.stock).toBe(1);
    expect((await ledger(guild.id, buyer)).slice(-2)).toEqual([
      { type: 'shop_purchase', amount: -300, balance_after: 200 },
      { type: 'shop_refund', amount: 300, balance_after: 500 },
    ]);
    await expectLedgerBalanced(guild.id);
    expect(await events(guild.id, 'shop.refund')).toEqual([
      {
        type: 'shop.refund',
        data: { purchaseId, userId: buyer, item: { id: vip.id, name: 'VIP', emoji: null, type: 'role' }, price: 300, refundedBy: guild.ownerId, refundedAt: NOW.toISOString() },
      },
    ]);
    expect((await auditRows(guild.id)).at(-1)).toMatchObject({
      action: 'shop.refund',
      api_key_id: keyId,
      target_type: 'purchase',
      target_id: String(purchaseId),
      data: { userId: buyer, previousStatus: 'owned', price: 300, transactionId: res.body.transactionId, reason: 'Changed mind' },
    });
  });

  it('refunding twice answers 409 PURCHASE_ALREADY_REFUNDED; nothing changes', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 20, stock: 3 });
    const buyer = await member(guild, { balance: 100 });
    const { body } = await buy(guild, key, buyer, { itemId: sticker.id });
    expect((await refund(guild, key, body.purchase.id)).status).toBe(200);
    await refused(guild.id, async () => expectError(await refund(guild, key, body.purchase.id), 409, 'PURCHASE_ALREADY_REFUNDED'));
  });

  it('two refunds at once: one credits, the other answers 409; one shop.refund', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 20 });
    const buyer = await member(guild, { balance: 100 });
    const { body } = await buy(guild, key, buyer, { itemId: sticker.id });
    const results = await Promise.all([refund(guild, key, body.purchase.id), refund(guild, key, body.purchase.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await events(guild.id, 'shop.refund')).toHaveLength(1);
    expect((await ledger(guild.id, buyer)).at(-1)).toEqual({ type: 'shop_refund', amount: 20, balance_after: 100 });
  });

  it('a used purchase can be refunded; a grant refunds with no credit (transactionId and balance null)', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 20 });
    const buyer = await member(guild, { balance: 100 });
    const { body } = await buy(guild, key, buyer, { itemId: sticker.id });
    await db().updateTable('shop_purchases').set({ status: 'used' }).where('id', '=', body.purchase.id).execute();
    expect((await refund(guild, key, body.purchase.id)).body).toMatchObject({ purchase: { status: 'refunded' }, balance: 100 });
    const granted = await grant(guild, key, buyer, { itemId: sticker.id });
    const res = await refund(guild, key, granted.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ purchase: { status: 'refunded', pricePaid: 0 }, transactionId: null, balance: null });
  });

  it('a credit above the maximum balance answers 422 BALANCE_LIMIT; nothing changes', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 50 });
    const buyer = await member(guild, { balance: 100 });
    const { body } = await buy(guild, key, buyer, { itemId: sticker.id });
    await db().updateTable('bank_settings').set({ max_balance: 60 }).where('guild_id', '=', guild.id).execute();
    await refused(guild.id, async () => expectError(await refund(guild, key, body.purchase.id), 422, 'BALANCE_LIMIT', { maxBalance: 60 }));
  });

  it('an unknown or foreign purchase answers 404 PURCHASE_NOT_FOUND; bad bodies and ids 400; nothing changes', async () => {
    const { guild, key } = await setup();
    const other = await setup();
    const foreignBuyer = await member(other.guild, { balance: 100 });
    const foreign = await buy(other.guild, other.key, foreignBuyer, { itemId: (await item(other.guild)).id });
    await refused(guild.id, async () => {
      for (const id of [999_999, foreign.body.purchase.id]) expectError(await refund(guild, key, id), 404, 'PURCHASE_NOT_FOUND');
      expect((await refund(guild, key, 0)).status).toBe(400);
      const bad = await refund(guild, key, 5, { reason: 'x'.repeat(501) });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'body', path: 'reason' })] });
    });
  });

  it('Idempotency-Key: a replay answers the stored 200, not the 409', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 20 });
    const buyer = await member(guild, { balance: 100 });
    const { body } = await buy(guild, key, buyer, { itemId: sticker.id });
    const first = await refund(guild, key, body.purchase.id, {}, 'r-1');
    await refused(guild.id, async () => {
      const again = await refund(guild, key, body.purchase.id, {}, 'r-1');
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expectError(await refund(guild, key, body.purchase.id, { reason: 'other' }, 'r-1'), 422, 'IDEMPOTENCY_KEY_REUSED');
    });
  });
});
