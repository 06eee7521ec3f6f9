import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { shopRequests } from './shopBed.js';

const { db, app } = useApiTestBed({ temporal: true });
const { setup, item, member, buy, grant, refund, get, expectError } = shopRequests(db, app);

const ids = (res: { body: { items: Array<{ id: number }> } }) => res.body.items.map((p) => p.id);

async function history() {
  const { guild, key } = await setup();
  const sticker = await item(guild, { price: 10 });
  const badge = await item(guild, { price: 0, name: 'Badge' });
  const ann = await member(guild, { balance: 1000 });
  const bob = await member(guild, { balance: 1000 });
  const p1 = (await buy(guild, key, ann, { itemId: sticker.id })).body.purchase.id;
  const p2 = (await grant(guild, key, ann, { itemId: badge.id })).body.id;
  const p3 = (await buy(guild, key, bob, { itemId: sticker.id })).body.purchase.id;
  const p4 = (await buy(guild, key, ann, { itemId: sticker.id })).body.purchase.id;
  await refund(guild, key, p4);
  const p5 = (await buy(guild, key, ann, { itemId: badge.id })).body.purchase.id;
  await db().updateTable('shop_purchases').set({ status: 'used' }).where('id', '=', p5).execute();
  return { guild, key, sticker, badge, ann, bob, p: [p1, p2, p3, p4, p5] as const };
}

describe('GET /shop/purchases', () => {
  it('lists every purchase newest first and filters by userId, itemId, status and source', async () => {
    const { guild, key, sticker, ann, bob, p } = await history();
    const [p1, p2, p3, p4, p5] = p;
    const list = async (query = '') => ids(await get(guild, key, `/purchases${query ? `?${query}` : ''}`));
    expect(await list()).toEqual([p5, p4, p3, p2, p1]);
    expect(await list(`userId=${ann}`)).toEqual([p5, p4, p2, p1]);
    expect(await list(`userId=${bob}`)).toEqual([p3]);
    expect(await list(`itemId=${sticker.id}`)).toEqual([p4, p3, p1]);
    expect(await list('status=refunded')).toEqual([p4]);
    expect(await list('status=used')).toEqual([p5]);
    expect(await list('status=owned&source=buy')).toEqual([p3, p1]);
    expect(await list('source=grant')).toEqual([p2]);
    expect(await list(`userId=${ann}&itemId=${sticker.id}&status=owned`)).toEqual([p1]);
  });

  it('pages with limit and before; the last page has no cursor', async () => {
    const { guild, key, p } = await history();
    const first = await get(guild, key, '/purchases?limit=2');
    expect(ids(first)).toEqual([p[4], p[3]]);
    expect(first.body.nextCursor).toBe(String(p[3]));
    const second = await get(guild, key, `/purchases?limit=2&before=${first.body.nextCursor}`);
    expect(ids(second)).toEqual([p[2], p[1]]);
    const last = await get(guild, key, `/purchases?limit=2&before=${second.body.nextCursor}`);
    expect(ids(last)).toEqual([p[0]]);
    expect(last.body.nextCursor).toBeNull();
    expect((await get(guild, key, '/purchases?limit=5')).body.nextCursor).toBeNull();
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['before=0', 'before'],
    ['status=lost', 'status'],
    ['source=gift', 'source'],
    ['userId=12', 'userId'],
    ['itemId=x', 'itemId'],
  ])('query %s answers 400 INVALID_REQUEST', async (query, path) => {
    const { guild, key } = await setup();
    const res = await get(guild, key, `/purchases?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'query', path })] });
  });
});

describe('GET /shop/purchases/{purchaseId}', () => {
  it('answers the purchase; unknown or another server\'s: 404 PURCHASE_NOT_FOUND', async () => {
    const { guild, key, p, ann } = await history();
    const res = await get(guild, key, `/purchases/${p[1]}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p[1], userId: ann, source: 'grant', status: 'owned', pricePaid: 0, item: { name: 'Badge', type: 'item' } });
    const other = await setup();
    expectError(await get(other.guild, other.key, `/purchases/${p[1]}`), 404, 'PURCHASE_NOT_FOUND');
    expectError(await get(guild, key, '/purchases/999999'), 404, 'PURCHASE_NOT_FOUND');
  });
});

describe('GET /shop/members/{userId}/inventory', () => {
  it("lists the member's owned purchases only, newest first, paged; zero rows for a stranger", async () => {
    const { guild, key, ann, bob, p } = await history();
    const inv = await get(guild, key, `/members/${ann}/inventory`);
    expect(inv.status).toBe(200);
    expect(ids(inv)).toEqual([p[1], p[0]]);
    expect(inv.body.nextCursor).toBeNull();
    const page = await get(guild, key, `/members/${ann}/inventory?limit=1`);
    expect(ids(page)).toEqual([p[1]]);
    expect(ids(await get(guild, key, `/members/${ann}/inventory?limit=1&before=${page.body.nextCursor}`))).toEqual([p[0]]);
    expect(ids(await get(guild, key, `/members/${bob}/inventory`))).toEqual([p[2]]);
    expect((await get(guild, key, '/members/123456789012345678/inventory')).body).toEqual({ items: [], nextCursor: null });
    expect((await get(guild, key, '/members/123/inventory')).status).toBe(400);
  });
});
