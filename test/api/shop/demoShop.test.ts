import { describe, expect, it } from 'vitest';
import { DEMO_BOT_ID, DEMO_GUILD_ID, DEMO_OWNER_ID, seedDemoGuild } from '../../../process/demo/demoGuild.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer, createTestKey } from '../../harness/fixtures.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW, temporal: true });
const member = (i: number) => `11000000000000${String(1000 + i).padStart(5, '0')}`;

describe('demo shop', () => {
  it('has Main and Cosmetics, role, timed role, colour and item types, limited stock; seeded once; a member can buy', async () => {
    await seedDemoGuild(db(), NOW);
    const items = () => db().selectFrom('shop_items').select(['id', 'name']).where('guild_id', '=', DEMO_GUILD_ID).orderBy('id').execute();
    const first = await items();
    await seedDemoGuild(db(), NOW);
    expect(await items()).toEqual(first);

    const { key } = await createTestKey(db(), { id: DEMO_GUILD_ID, ownerId: DEMO_OWNER_ID, botUserId: DEMO_BOT_ID }, { scopes: ['shop:read', 'shop:write'] });
    const get = (path: string) => app.http('GET', `/guilds/${DEMO_GUILD_ID}/shop${path}`, { headers: bearer(key) });
    const stores = await get('/stores');
    expect(stores.body.items.map((s: { name: string | null; itemCount: number }) => [s.name, s.itemCount])).toEqual([
      [null, 6],
      ['Cosmetics', 3],
    ]);
    const listed = (await get('/items?includeDisabled=true')).body.items as Array<{ name: string; type: string; durationSec: number; stock: number | null; hidden: boolean; enabled: boolean; id: number }>;
    expect(new Set(listed.map((i) => i.type))).toEqual(new Set(['role', 'color', 'item']));
    expect(listed.find((i) => i.durationSec > 0)).toMatchObject({ name: 'Supporter (7 days)', durationSec: 604_800 });
    expect(listed.find((i) => i.name === 'Golden Ticket')).toMatchObject({ stock: 5 });
    expect(listed.filter((i) => i.hidden).map((i) => i.name)).toEqual(['Secret Menu']);
    expect(listed.filter((i) => !i.enabled).map((i) => i.name)).toEqual(['Retired Badge']);

    const stickers = listed.find((i) => i.name === 'Sticker Pack')!;
    const bought = await app.http('POST', `/guilds/${DEMO_GUILD_ID}/shop/members/${member(20)}/purchases`, { headers: bearer(key), body: { itemId: stickers.id } });
    expect(bought.status).toBe(201);
    expect(bought.body).toMatchObject({ previousBalance: 100, balance: 50 });
  });
});
