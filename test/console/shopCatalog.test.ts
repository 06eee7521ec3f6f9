import { describe, expect, it } from 'vitest';
import { findItem } from '../../db/shop/items.js';
import { ITEM_DEFAULTS, shopRequests } from '../api/shop/shopBed.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { idsOn, olderOf, shopConsole, shopGuild } from './shopBed.js';
import { featureOff } from './ticketBed.js';

// The catalog's pages and actions start no workflow: no worker here (purchases and refunds: shopPurchases.test.ts;
// the channels a store is shown in: shopStoreChannels.test.ts).
const { db, app } = useApiTestBed({ env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });
const { item, store } = shopRequests(db, app);
const { signedIn, state, shopAudit } = shopConsole(db, app);

describe('stores', () => {
  it('lists Main first, then the stores in order with their items on sale, paged by an older link', async () => {
    const { guild, client, path } = await signedIn();
    const stores = [];
    for (let i = 0; i < 26; i++) stores.push(await store(guild, { name: `Store ${i}`, sortOrder: i }));
    await item(guild, { storeId: stores[0]!.id });
    await item(guild, { storeId: stores[0]!.id, enabled: false });
    await item(guild);
    const first = await client.get(path);
    expect(first.status).toBe(200);
    expect(idsOn(first.text, 'store')).toEqual(['main', ...stores.slice(0, 25).map((s) => String(s.id))]);
    expect(first.text).toMatch(new RegExp(`data-store="${stores[0]!.id}"><td>Store 0</td><td>open</td><td>1</td>`));
    expect(first.text).toContain('<a href="/console/servers/' + guild.id + '/shop/purchases">Purchases and refunds</a>');
    const older = await client.get(olderOf(first.text)!);
    expect(idsOn(older.text, 'store')).toEqual([String(stores[25]!.id)]);
    expect(olderOf(older.text)).toBeUndefined();
    const bad = await client.get(`${path}?after=x`);
    expect([bad.status, errorCodeOf(bad)]).toEqual([400, 'INVALID_INPUT']);
  });

  it('creates and edits a store through the catalog use case, audited with the console user; an unchanged save writes nothing', async () => {
    const { guild, client, path } = await signedIn();
    await client.get(`${path}/stores/new`);
    const res = await client.post(`${path}/stores`, { 'store-name': 'Colours', 'store-color': '#FF0000', 'store-sort': '3', 'store-enabled': 'on' });
    expect([res.status, res.headers.location]).toEqual([303, path]);
    const [created] = await db().selectFrom('shop_stores').selectAll().where('guild_id', '=', guild.id).execute();
    expect(created).toMatchObject({ name: 'Colours', color: '#FF0000', sort_order: 3, enabled: true, emoji: null, channel_ids: [] });

    const form = await client.get(`${path}/stores/${created!.id}`);
    expect(form.text).toContain('value="Colours"');
    expect((await client.post(`${path}/stores/${created!.id}`, { 'store-name': 'Colours', 'store-color': '#FF0000', 'store-sort': '3' })).status).toBe(303);
    const after = await db().selectFrom('shop_stores').select(['name', 'enabled', 'color']).where('id', '=', created!.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ name: 'Colours', enabled: false, color: '#FF0000' });
    await client.get(`${path}/stores/${created!.id}`);
    await client.post(`${path}/stores/${created!.id}`, { 'store-name': 'Colours', 'store-color': '#FF0000', 'store-sort': '3' });
    expect(await shopAudit(guild.id)).toEqual([
      { actor_type: 'console_user', actor_id: guild.managerId, action: 'shop.storeCreate', target_id: String(created!.id), data: expect.objectContaining({ name: 'Colours', channelIds: [] }) },
      { actor_type: 'console_user', actor_id: guild.managerId, action: 'shop.storeUpdate', target_id: String(created!.id), data: { enabled: false } },
    ]);
  });

  it.each([
    ['no name', { 'store-name': ' ' }, 'store-name', 'Give a name of 1 to 100 characters, without control characters.'],
    ['a colour that is no colour', { 'store-name': 'A', 'store-color': 'red' }, 'store-color', 'Give a colour like #5865F2, or none.'],
    ['a position that is no number', { 'store-name': 'A', 'store-sort': 'first' }, 'store-sort', 'Give a position from 0 to 10,000.'],
    ['a position past 10,000', { 'store-name': 'A', 'store-sort': '10001' }, 'store-sort', 'Give a position from 0 to 10,000.'],
  ])('keeps %s on the store form (400 INVALID_INPUT, the field named), creating nothing', async (_, fields, field, message) => {
    const { guild, client, path } = await signedIn();
    await client.get(`${path}/stores/new`);
    const before = await state(guild.id);
    const res = await client.post(`${path}/stores`, fields);
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, field)).toBe(message);
    expect(await state(guild.id)).toEqual(before);
  });

  it("answers 404 STORE_NOT_FOUND for another server's store and for an id past the column's range", async () => {
    const { client, path } = await signedIn();
    const other = await shopGuild(db());
    const theirs = await store(other);
    for (const p of [`${path}/stores/${theirs.id}`, `${path}/stores/${theirs.id}/items`]) {
      const res = await client.get(p);
      expect([p, res.status, errorCodeOf(res)]).toEqual([p, 404, 'STORE_NOT_FOUND']);
    }
    expect((await client.get(`${path}/stores/99999999999/items`)).status).toBe(404);
  });
});

describe('items', () => {
  it("lists a store's items in store order with their role by name, price in the currency and stock, paged; an empty store says what to do", async () => {
    const { guild, client, path } = await signedIn();
    const extras = await store(guild);
    expect((await client.get(`${path}/stores/${extras.id}/items`)).text).toContain('data-empty="items"');
    const vip = await item(guild, { storeId: extras.id, name: 'VIP pass', type: 'role', roleId: guild.roles.vip, price: 1, durationSec: 3600, stock: 4, sortOrder: 0 });
    const rest = [];
    for (let i = 0; i < 25; i++) rest.push(await item(guild, { storeId: extras.id, name: `Thing ${i}`, price: 5, sortOrder: 1, enabled: i !== 0 }));
    await item(guild, { name: 'In Main' });
    const first = await client.get(`${path}/stores/${extras.id}/items`);
    expect(idsOn(first.text, 'item')).toEqual([vip, ...rest.slice(0, 24)].map((i) => String(i.id)));
    expect(first.text).toContain('<td>VIP pass</td><td>role @VIP for 3600 s</td><td>1 gem</td><td>4</td><td>on sale</td>');
    expect(first.text).toContain('<td>Thing 0</td><td>item </td><td>5 gems</td><td>unlimited</td><td>off</td>');
    expect(idsOn((await client.get(olderOf(first.text)!)).text, 'item')).toEqual([String(rest[24]!.id)]);
    expect(idsOn((await client.get(`${path}/stores/main/items`)).text, 'item')).toHaveLength(1);
    for (const p of [`${path}/stores/main/items?after=1`, `${path}/items/new?store=extras`]) {
      const bad = await client.get(p);
      expect([p, bad.status, errorCodeOf(bad)]).toEqual([p, 400, 'INVALID_INPUT']);
    }
  });

  it('creates a timed role item with its stock through the catalog use case, audited with the console user', async () => {
    const { guild, client, path } = await signedIn();
    const extras = await store(guild);
    const form = await client.get(`${path}/items/new?store=${extras.id}`);
    expect(form.text).toContain('<option value="' + guild.roles.vip + '">@VIP</option>');
    expect(form.text).not.toContain('@Bot');
    const fields = {
      'item-name': 'VIP for a day',
      'item-price': '250',
      'item-type': 'role',
      'item-role': guild.roles.vip,
      'item-duration': '86400',
      'item-stock': '10',
      'item-limit': '1',
      'item-min-level': '5',
      'item-store': String(extras.id),
      'item-sort': '2',
    };
    const res = await client.post(`${path}/items`, fields);
    expect([res.status, res.headers.location]).toEqual([303, `${path}/stores/${extras.id}/items`]);
    const [row] = await db().selectFrom('shop_items').select('id').where('guild_id', '=', guild.id).execute();
    expect(await findItem(db(), guild.id, row!.id)).toEqual({
      ...ITEM_DEFAULTS,
      id: row!.id,
      storeId: extras.id,
      name: 'VIP for a day',
      price: 250,
      type: 'role',
      roleId: guild.roles.vip,
      durationSec: 86400,
      stock: 10,
      perUserLimit: 1,
      minLevel: 5,
      sortOrder: 2,
    });
    expect(await shopAudit(guild.id)).toEqual([
      { actor_type: 'console_user', actor_id: guild.managerId, action: 'shop.itemCreate', target_id: String(row!.id), data: expect.objectContaining({ name: 'VIP for a day', price: 250, stock: 10 }) },
    ]);
  });

  it.each([
    ['a role item without a role', { 'item-type': 'role' }, 'item-role', 'Pick the role a role or colour item gives.'],
    ['a role the bot cannot give', { 'item-type': 'color', 'item-role': 'BOT' }, 'item-role', 'Pick a role of this server that the bot can give.'],
    ['a price that is no number', { 'item-price': '12.5' }, 'item-price', 'Give a price: a whole number from 0 to 1,000,000,000,000.'],
    ['a stock past 1,000,000', { 'item-stock': '1000001' }, 'item-stock', 'Give the stock, a whole number from 0 to 1,000,000, or leave it empty for unlimited.'],
    ['a timed plain item', { 'item-duration': '60' }, 'item-duration', 'Give the seconds a timed role lasts, 0 to 31,536,000; a timed item needs a role.'],
    ['an unknown kind', { 'item-type': 'pet' }, 'item-type', 'Choose what the item is.'],
    ['no name', { 'item-name': '' }, 'item-name', 'Give a name of 1 to 100 characters, without control characters.'],
  ])('keeps %s on the item form (400 INVALID_INPUT, the field named), creating nothing', async (_, fields, field, message) => {
    const { guild, client, path } = await signedIn();
    await client.get(`${path}/items/new`);
    const before = await state(guild.id);
    const sent: Record<string, string> = { 'item-name': 'Thing', 'item-price': '5', 'item-type': 'item', ...fields };
    if (sent['item-role'] === 'BOT') sent['item-role'] = guild.roles.botRole;
    const res = await client.post(`${path}/items`, sent);
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, field)).toBe(message);
    expect(res.text).toContain(`id="item-price" name="item-price" value="${sent['item-price']}"`);
    expect(await state(guild.id)).toEqual(before);
  });

  it("refuses another server's store for a new item 422 STORE_NOT_FOUND on the store field, creating nothing", async () => {
    const { guild, client, path } = await signedIn();
    const theirs = await store(await shopGuild(db()));
    await client.get(`${path}/items/new`);
    const before = await state(guild.id);
    const res = await client.post(`${path}/items`, { 'item-name': 'Thing', 'item-price': '5', 'item-type': 'item', 'item-store': String(theirs.id) });
    expect([res.status, errorCodeOf(res)]).toEqual([422, 'STORE_NOT_FOUND']);
    expect(fieldErrorOf(res.text, 'item-store')).toBe('Pick a store of this server.');
    expect(await state(guild.id)).toEqual(before);
  });

  it('edits the price and makes it a colour role: only what changed is saved and audited', async () => {
    const { guild, client, path } = await signedIn();
    const sticker = await item(guild, { name: 'Sticker', price: 100, stock: 3 });
    const page = await client.get(`${path}/items/${sticker.id}`);
    expect(page.text).toContain('value="Sticker"');
    const res = await client.post(`${path}/items/${sticker.id}`, { 'item-name': 'Sticker', 'item-price': '150', 'item-type': 'color', 'item-role': guild.roles.red, 'item-duration': '0', 'item-min-level': '0', 'item-sort': '0' });
    expect([res.status, res.headers.location]).toEqual([303, `${path}/stores/main/items`]);
    expect(await findItem(db(), guild.id, sticker.id)).toEqual({ ...sticker, price: 150, type: 'color', roleId: guild.roles.red });
    expect(await shopAudit(guild.id)).toEqual([
      { actor_type: 'console_user', actor_id: guild.managerId, action: 'shop.itemUpdate', target_id: String(sticker.id), data: { price: 150, type: 'color', roleId: guild.roles.red } },
    ]);
    await client.get(`${path}/items/${sticker.id}`);
    const before = await state(guild.id);
    const bad = await client.post(`${path}/items/${sticker.id}`, { 'item-name': 'Sticker', 'item-price': '-1', 'item-type': 'color', 'item-role': guild.roles.red });
    expect([bad.status, fieldErrorOf(bad.text, 'item-price')]).toEqual([400, 'Give a price: a whole number from 0 to 1,000,000,000,000.']);
    expect(await state(guild.id)).toEqual(before);
  });

  it("restocks through the API's PATCH use case (before and after audited); a bad stock stays on its field", async () => {
    const { guild, client, path } = await signedIn();
    const sticker = await item(guild, { stock: 3 });
    await client.get(`${path}/items/${sticker.id}`);
    const res = await client.post(`${path}/items/${sticker.id}/stock`, { 'item-stock': '40' });
    expect([res.status, res.headers.location]).toEqual([303, `${path}/items/${sticker.id}`]);
    expect((await findItem(db(), guild.id, sticker.id))!.stock).toBe(40);
    await client.get(`${path}/items/${sticker.id}`);
    await client.post(`${path}/items/${sticker.id}/stock`, { 'item-stock': '' });
    expect((await findItem(db(), guild.id, sticker.id))!.stock).toBeNull();
    expect((await shopAudit(guild.id)).map((a) => [a.actor_type, a.actor_id, a.action, a.data])).toEqual([
      ['console_user', guild.managerId, 'shop.itemUpdate', { before: { enabled: true, stock: 3 }, after: { enabled: true, stock: 40 } }],
      ['console_user', guild.managerId, 'shop.itemUpdate', { before: { enabled: true, stock: 40 }, after: { enabled: true, stock: null } }],
    ]);
    await client.get(`${path}/items/${sticker.id}`);
    const before = await state(guild.id);
    for (const stock of ['1000001', 'lots']) {
      const bad = await client.post(`${path}/items/${sticker.id}/stock`, { 'item-stock': stock });
      expect([bad.status, errorCodeOf(bad), fieldErrorOf(bad.text, 'item-stock')]).toEqual([400, 'INVALID_INPUT', 'Give the stock, a whole number from 0 to 1,000,000, or leave it empty for unlimited.']);
    }
    expect(await state(guild.id)).toEqual(before);
  });

  it('takes an item off sale after a confirmation and puts it back, through the PATCH use case', async () => {
    const { guild, client, path } = await signedIn();
    const sticker = await item(guild, { name: 'Sticker' });
    const confirm = await client.get(`${path}/items/${sticker.id}/disable`);
    expect(confirm.text).toContain('Take Sticker off sale?');
    expect(await findItem(db(), guild.id, sticker.id)).toMatchObject({ enabled: true });
    expect((await client.post(`${path}/items/${sticker.id}/disable`)).status).toBe(303);
    expect(await findItem(db(), guild.id, sticker.id)).toMatchObject({ enabled: false });
    const page = await client.get(`${path}/items/${sticker.id}`);
    expect(page.text).toContain('data-item-state="off"');
    expect((await client.post(`${path}/items/${sticker.id}/enable`)).status).toBe(303);
    expect(await findItem(db(), guild.id, sticker.id)).toMatchObject({ enabled: true });
    expect((await shopAudit(guild.id)).map((a) => a.data)).toEqual([
      { before: { enabled: true, stock: null }, after: { enabled: false, stock: null } },
      { before: { enabled: false, stock: null }, after: { enabled: true, stock: null } },
    ]);
  });

  it("answers 404 SHOP_ITEM_NOT_FOUND for another server's item on each of its pages and actions, changing nothing", async () => {
    const { guild, client, path } = await signedIn();
    const theirs = await item(await shopGuild(db()));
    await client.get(`${path}/items/new`);
    for (const p of [`${path}/items/${theirs.id}`, `${path}/items/${theirs.id}/disable`]) expect([p, errorCodeOf(await client.get(p))]).toEqual([p, 'SHOP_ITEM_NOT_FOUND']);
    const before = await state(guild.id);
    const res = await client.post(`${path}/items/${theirs.id}/disable`, {}, { form: 'x' });
    expect([res.status, errorCodeOf(res)]).toEqual([404, 'SHOP_ITEM_NOT_FOUND']);
    expect(await state(guild.id)).toEqual(before);
  });
});

describe('the shop switched off', () => {
  it('shows the feature-off page and refuses the actions 409 FEATURE_DISABLED, changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    const sticker = await item(guild);
    await client.get(`${path}/items/${sticker.id}`);
    await client.get(`${path}/stores/new`);
    await featureOff(db(), guild.id, 'shop');
    const page = await client.get(path);
    expect([page.status, page.text.includes('data-feature-off="shop"')]).toEqual([200, true]);
    const before = await state(guild.id);
    for (const [p, fields] of [
      [`${path}/stores`, { 'store-name': 'A' }],
      [`${path}/items/${sticker.id}/stock`, { 'item-stock': '1' }],
    ] as const) {
      const res = await client.post(p, fields);
      expect([p, res.status, errorCodeOf(res)]).toEqual([p, 409, 'FEATURE_DISABLED']);
    }
    expect(errorCodeOf(await client.get(`${path}/purchases`))).toBe('FEATURE_DISABLED');
    expect(await state(guild.id)).toEqual(before);
  });
});
