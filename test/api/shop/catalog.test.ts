import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createTestKey } from '../../harness/fixtures.js';
import { shopRequests } from './shopBed.js';

const { db, app } = useApiTestBed();
const { setup, item, store, get, patchItem, refused, expectError, auditRows } = shopRequests(db, app);

describe('GET /shop/stores', () => {
  it('lists Main first, then the stores in order, each with its count of enabled items (hidden included)', async () => {
    const { guild, key } = await setup();
    const later = await store(guild, { name: 'Later', sortOrder: 2, channelIds: ['123456789012345678'] });
    const first = await store(guild, { name: 'First', emoji: '⭐', sortOrder: 1, enabled: false, color: '#FF0000', description: 'd' });
    await item(guild);
    await item(guild, { hidden: true });
    await item(guild, { enabled: false });
    await item(guild, { storeId: later.id });
    const res = await get(guild, key, '/stores');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { id: null, main: true, name: null, emoji: null, description: null, color: null, enabled: true, channelIds: [], itemCount: 2 },
        { id: first.id, main: false, name: 'First', emoji: '⭐', description: 'd', color: '#FF0000', enabled: false, channelIds: [], itemCount: 0 },
        { id: later.id, main: false, name: 'Later', emoji: null, description: null, color: null, enabled: true, channelIds: ['123456789012345678'], itemCount: 1 },
      ],
    });
  });
});

describe('GET /shop/items', () => {
  it('lists enabled items in sort order with the currency; hidden included; filters by store and category', async () => {
    const { guild, key } = await setup();
    const extras = await store(guild);
    const b = await item(guild, { name: 'B', sortOrder: 2, category: 'Roles', hidden: true });
    const a = await item(guild, { name: 'A', sortOrder: 1 });
    const off = await item(guild, { name: 'Off', sortOrder: 0, enabled: false });
    const c = await item(guild, { name: 'C', sortOrder: 3, storeId: extras.id, category: 'Roles' });

    const all = await get(guild, key, '/items');
    expect(all.status).toBe(200);
    expect(all.body.items.map((i: { id: number }) => i.id)).toEqual([a.id, b.id, c.id]);
    expect(all.body.currency).toEqual({ name: 'gem', plural: 'gems', emoji: null });
    expect(all.body.items[1]).toEqual({ ...b, hidden: true });

    const ids = async (query: string) => (await get(guild, key, `/items?${query}`)).body.items.map((i: { id: number }) => i.id);
    expect(await ids('includeDisabled=true')).toEqual([off.id, a.id, b.id, c.id]);
    expect(await ids('includeDisabled=0')).toEqual([a.id, b.id, c.id]);
    expect(await ids('storeId=main')).toEqual([a.id, b.id]);
    expect(await ids(`storeId=${extras.id}`)).toEqual([c.id]);
    for (const unknown of ['99999', '0', '9999999999']) expect(await ids(`storeId=${unknown}`)).toEqual([]);
    expect(await ids('category=Roles')).toEqual([b.id, c.id]);
    expect(await ids('category=Roles&storeId=main')).toEqual([b.id]);
  });

  it.each([
    ['storeId=shop', 'storeId'],
    ['storeId=-1', 'storeId'],
    ['storeId=12345678901', 'storeId'],
    ['storeId=MAIN', 'storeId'],
    [`category=${'x'.repeat(33)}`, 'category'],
    ['category=', 'category'],
    ['includeDisabled=yes', 'includeDisabled'],
  ])('query %s answers 400 INVALID_REQUEST', async (query, path) => {
    const { guild, key } = await setup();
    const res = await get(guild, key, `/items?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'query', path })] });
  });
});

describe('GET /shop/items/{itemId}', () => {
  it('answers the item, disabled ones too; an unknown or foreign item answers 404 SHOP_ITEM_NOT_FOUND', async () => {
    const { guild, key } = await setup();
    const off = await item(guild, { enabled: false, roleId: '123456789012345678', durationSec: 60, requiredRoleIds: ['223456789012345678'], minLevel: 3, perUserLimit: 2, stock: 5 });
    const res = await get(guild, key, `/items/${off.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(off);
    const other = await setup();
    const foreign = await item(other.guild);
    for (const id of [foreign.id, 2_000_000_000]) expectError(await get(guild, key, `/items/${id}`), 404, 'SHOP_ITEM_NOT_FOUND');
    for (const id of ['0', 'abc', '2147483648']) expect((await get(guild, key, `/items/${id}`)).status).toBe(400);
  });
});

describe('PATCH /shop/items/{itemId}', () => {
  it('sets enabled and stock (null = unlimited), answers 200 ShopItem and writes an audit row', async () => {
    const { guild, key, keyId } = await setup();
    const sticker = await item(guild, { stock: 3 });
    const off = await patchItem(guild, key, sticker.id, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...sticker, enabled: false, stock: 3 });
    const restocked = await patchItem(guild, key, sticker.id, { stock: 1_000_000, enabled: true });
    expect(restocked.body).toMatchObject({ enabled: true, stock: 1_000_000 });
    const unlimited = await patchItem(guild, key, sticker.id, { stock: null });
    expect(unlimited.body).toMatchObject({ enabled: true, stock: null });
    expect((await get(guild, key, `/items/${sticker.id}`)).body).toEqual(unlimited.body);
    expect((await auditRows(guild.id)).map((r) => ({ action: r.action, key: r.api_key_id, target: r.target_id, data: r.data }))).toEqual([
      { action: 'shop.itemUpdate', key: keyId, target: String(sticker.id), data: { before: { enabled: true, stock: 3 }, after: { enabled: false, stock: 3 } } },
      { action: 'shop.itemUpdate', key: keyId, target: String(sticker.id), data: { before: { enabled: false, stock: 3 }, after: { enabled: true, stock: 1_000_000 } } },
      { action: 'shop.itemUpdate', key: keyId, target: String(sticker.id), data: { before: { enabled: true, stock: 1_000_000 }, after: { enabled: true, stock: null } } },
    ]);
  });

  it.each([
    [{}, ''],
    [{ stock: -1 }, 'stock'],
    [{ stock: 1_000_001 }, 'stock'],
    [{ stock: 1.5 }, 'stock'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ enabled: true, price: 5 }, ''],
  ])('body %j answers 400 INVALID_REQUEST; nothing changes', async (body, path) => {
    const { guild, key } = await setup();
    const sticker = await item(guild);
    await refused(guild.id, async () => {
      const res = await patchItem(guild, key, sticker.id, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'body', path })] });
    });
  });

  it('an unknown item answers 404 SHOP_ITEM_NOT_FOUND; nothing changes', async () => {
    const { guild, key } = await setup();
    await item(guild);
    await refused(guild.id, async () => expectError(await patchItem(guild, key, 999_999, { enabled: false }), 404, 'SHOP_ITEM_NOT_FOUND'));
  });

  it('needs shop:write (403 INSUFFICIENT_SCOPE) and the Shop feature (409 FEATURE_DISABLED); nothing changes', async () => {
    const { guild } = await setup();
    const sticker = await item(guild);
    const { key: readOnly } = await createTestKey(db(), guild, { scopes: ['shop:read'] });
    await refused(guild.id, async () => expectError(await patchItem(guild, readOnly, sticker.id, { enabled: false }), 403, 'INSUFFICIENT_SCOPE', { required: 'shop:write' }));
    const off = await setup({ features: ['bank'] });
    const offItem = await item(off.guild);
    await refused(off.guild.id, async () => {
      expectError(await patchItem(off.guild, off.key, offItem.id, { enabled: false }), 409, 'FEATURE_DISABLED');
      expectError(await get(off.guild, off.key, '/items'), 409, 'FEATURE_DISABLED');
    });
    const { key: writeOnly } = await createTestKey(db(), guild, { scopes: ['shop:write'] });
    expectError(await get(guild, writeOnly, '/stores'), 403, 'INSUFFICIENT_SCOPE', { required: 'shop:read' });
  });
});
