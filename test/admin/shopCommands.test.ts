import { describe, expect, it } from 'vitest';
import { findItem } from '../../db/shop/items.js';
import { fixedClock } from '../../src/core/clock.js';
import { useTestDatabase } from '../harness/database.js';
import { cli, cliGuild } from './cli.js';

const database = useTestDatabase();
const admin = cli(() => database.db, fixedClock(new Date('2026-11-24T10:00:00Z')));

const auditOf = (guildId: string) =>
  database.db.selectFrom('audit_log').select(['action', 'actor_id', 'target_id']).where('guild_id', '=', guildId).where('action', 'like', 'shop.%').orderBy('id').execute();

describe('shop commands', () => {
  it('creates, updates and lists stores, categories and items, each audited as the operator', async () => {
    const { id } = await cliGuild(admin);
    const store = await admin('shop', 'store-create', '--guild', id, '--name', 'Extras', '--emoji', '⭐', '--channels', '123456789012345678', '--json');
    expect(store.code).toBe(0);
    expect(store.json()).toMatchObject({ name: 'Extras', emoji: '⭐', channelIds: ['123456789012345678'], enabled: true });
    const storeId = String(store.json().id);
    expect((await admin('shop', 'store-update', '--guild', id, '--id', storeId, '--enabled', 'off', '--json')).json()).toMatchObject({ enabled: false, name: 'Extras' });
    expect((await admin('shop', 'store-list', '--guild', id)).stdout).toBe(`${storeId}\tExtras\toff\tsort 0`);

    expect((await admin('shop', 'category-create', '--guild', id, '--name', 'Roles')).code).toBe(0);
    const item = await admin(
      'shop', 'item-create', '--guild', id, '--name', 'VIP', '--price', '500', '--type', 'role', '--role', '223456789012345678',
      '--duration-sec', '3600', '--stock', '10', '--category', 'Roles', '--store', storeId, '--required-roles', '323456789012345678', '--json',
    );
    expect(item.code).toBe(0);
    expect(item.json()).toMatchObject({ name: 'VIP', price: 500, type: 'role', roleId: '223456789012345678', durationSec: 3600, stock: 10, category: 'Roles', storeId: Number(storeId), requiredRoleIds: ['323456789012345678'] });
    const itemId = String(item.json().id);
    expect((await admin('shop', 'item-update', '--guild', id, '--id', itemId, '--stock', 'unlimited', '--hidden', 'on', '--json')).json()).toMatchObject({ stock: null, hidden: true, price: 500 });
    expect((await admin('shop', 'category-update', '--guild', id, '--name', 'Roles', '--rename-to', 'Perks', '--sort', '3')).code).toBe(0);
    expect(await findItem(database.db, id, Number(itemId))).toMatchObject({ category: 'Perks' });
    expect((await admin('shop', 'category-list', '--guild', id)).stdout).toBe('Perks\tsort 3');
    expect((await admin('shop', 'item-list', '--guild', id, '--store', storeId)).stdout).toBe(`${itemId}\tVIP\trole\tprice 500\tstock unlimited\ton`);
    expect((await admin('shop', 'item-list', '--guild', id, '--store', 'main')).stdout).toBe('(none)');
    expect((await auditOf(id)).map((r) => [r.action, r.actor_id])).toEqual([
      ['shop.storeCreate', 'alice'],
      ['shop.storeUpdate', 'alice'],
      ['shop.categoryCreate', 'alice'],
      ['shop.itemCreate', 'alice'],
      ['shop.itemUpdate', 'alice'],
      ['shop.categoryUpdate', 'alice'],
    ]);
  });

  it.each([
    [['item-create', '--name', 'X', '--price', '5', '--type', 'role'], 2, 'INVALID_ARGUMENT'],
    [['item-create', '--name', 'X', '--price', '-5', '--type', 'item'], 2, 'INVALID_ARGUMENT'],
    [['item-create', '--name', 'X', '--price', '5', '--type', 'item', '--category', 'Nope'], 1, 'CATEGORY_NOT_FOUND'],
    [['item-create', '--name', 'X', '--price', '5', '--type', 'item', '--store', '999999'], 1, 'STORE_NOT_FOUND'],
    [['item-update', '--id', '999999', '--price', '5'], 1, 'SHOP_ITEM_NOT_FOUND'],
    [['store-update', '--id', '999999', '--name', 'X'], 1, 'STORE_NOT_FOUND'],
    [['category-update', '--name', 'Nope', '--sort', '1'], 1, 'CATEGORY_NOT_FOUND'],
  ])('%j is refused with exit code %i and %s; nothing is written', async (args, code, error) => {
    const { id } = await cliGuild(admin);
    const [command, ...flags] = args;
    const res = await admin('shop', command!, '--guild', id, ...flags, '--json');
    expect(res.code).toBe(code);
    expect(res.error().error).toBe(error);
    expect(await auditOf(id)).toEqual([]);
  });

  it('a role item cannot lose its role through an update', async () => {
    const { id } = await cliGuild(admin);
    const item = await admin('shop', 'item-create', '--guild', id, '--name', 'VIP', '--price', '5', '--type', 'role', '--role', '223456789012345678', '--json');
    const res = await admin('shop', 'item-update', '--guild', id, '--id', String(item.json().id), '--role', 'none', '--json');
    expect(res.code).toBe(1);
    expect(res.error().error).toBe('INVALID_ITEM');
  });
});
