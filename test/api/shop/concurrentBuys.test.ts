import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { shopRequests } from './shopBed.js';

const { db, app } = useApiTestBed({ temporal: true });
const { setup, item, member, buy, get, ledger, expectLedgerBalanced } = shopRequests(db, app);

describe('concurrent buys', () => {
  it('50 buyers at once of an item with stock 10: exactly 10 sell, the others get 409 OUT_OF_STOCK, no balance overdrawn', async () => {
    const { guild, key } = await setup();
    const rare = await item(guild, { price: 70, stock: 10 });
    const buyers = await Promise.all(Array.from({ length: 50 }, () => member(guild, { balance: 100 })));

    const results = await Promise.all(buyers.map((userId) => buy(guild, key, userId, { itemId: rare.id })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: 'OUT_OF_STOCK', message: expect.any(String) });

    expect((await get(guild, key, `/items/${rare.id}`)).body.stock).toBe(0);
    const sold = await db().selectFrom('shop_purchases').select('user_id').where('item_id', '=', rare.id).execute();
    expect(sold).toHaveLength(10);
    expect(new Set(sold.map((p) => p.user_id))).toEqual(new Set(results.flatMap((r, i) => (r.status === 201 ? [buyers[i]] : []))));
    const balances = await db().selectFrom('bank_accounts').select('balance').where('guild_id', '=', guild.id).execute();
    expect(balances.map((b) => b.balance).sort((a, b) => a - b)).toEqual([...Array(10).fill(30), ...Array(40).fill(100)]);
    await expectLedgerBalanced(guild.id);
  });

  it('one buyer sending 50 buys at once with money for 3: exactly 3 succeed, the rest 409 INSUFFICIENT_FUNDS; ledger sum = balance', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 30, stock: 10 });
    const buyer = await member(guild, { balance: 100 });
    const results = await Promise.all(Array.from({ length: 50 }, () => buy(guild, key, buyer, { itemId: sticker.id })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    const refusals = results.filter((r) => r.status !== 201);
    expect(refusals).toHaveLength(47);
    for (const r of refusals) expect(r.body).toEqual({ error: 'INSUFFICIENT_FUNDS', message: expect.any(String), balance: 10 });
    expect((await get(guild, key, `/items/${sticker.id}`)).body.stock).toBe(7);
    const rows = await ledger(guild.id, buyer);
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(10);
    expect(rows.at(-1)!.balance_after).toBe(10);
    await expectLedgerBalanced(guild.id);
  });

  it('50 requests at once, 40 buyers and one buyer with money for 2 sending 10: 10 sold in all, at most 2 to the poor one', async () => {
    const { guild, key } = await setup();
    const rare = await item(guild, { price: 70, stock: 10 });
    const rich = await Promise.all(Array.from({ length: 40 }, () => member(guild, { balance: 1000 })));
    const poor = await member(guild, { balance: 150 });
    const senders = [...rich, ...Array<string>(10).fill(poor)];
    const results = await Promise.all(senders.map((userId) => buy(guild, key, userId, { itemId: rare.id })));

    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    results.forEach((r, i) => {
      if (r.status === 201) return;
      expect(r.status).toBe(409);
      // Only the poor buyer can run out of money; anyone can find the shelf empty.
      if (senders[i] !== poor) expect(r.body).toEqual({ error: 'OUT_OF_STOCK', message: expect.any(String) });
      else expect(['OUT_OF_STOCK', 'INSUFFICIENT_FUNDS']).toContain(r.body.error);
    });
    const poorBuys = results.filter((r, i) => senders[i] === poor && r.status === 201).length;
    expect(poorBuys).toBeLessThanOrEqual(2);
    expect((await ledger(guild.id, poor)).at(-1)!.balance_after).toBe(150 - 70 * poorBuys);
    expect((await get(guild, key, `/items/${rare.id}`)).body.stock).toBe(0);
    await expectLedgerBalanced(guild.id);
  });
});
