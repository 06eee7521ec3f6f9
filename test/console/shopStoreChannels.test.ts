import { describe, expect, it } from 'vitest';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { shopRequests } from '../api/shop/shopBed.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { snowflake } from '../harness/fixtures.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { channelsShown, shopConsole } from './shopBed.js';

// The channels a store is shown in, picked by name on the store's form (shopBed.ts); the rest of the catalog is in
// shopCatalog.test.ts. No workflow starts here: no worker.
const { db, app } = useApiTestBed({ env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });
const { store } = shopRequests(db, app);
const { withChannels, state, shopAudit } = shopConsole(db, app);

describe('stores', () => {
  it("saves a store's channels picked by name through the catalog use case and shows them by name on the store's page", async () => {
    const { guild, client, path, ids } = await withChannels();
    const form = await client.get(`${path}/stores/new`);
    expect(form.text).toMatch(new RegExp(`value="${ids.general}"\\s*/?> #general`));
    expect(form.text).toMatch(new RegExp(`value="${ids.news}"\\s*/?> #news`));
    expect(form.text).not.toContain(ids.voice);
    const res = await client.post(`${path}/stores`, { 'store-name': 'Colours', 'store-channels': [ids.general, ids.news], 'store-enabled': 'on' });
    expect(res.status).toBe(303);
    const [created] = await db().selectFrom('shop_stores').select(['id', 'channel_ids']).where('guild_id', '=', guild.id).execute();
    expect(created!.channel_ids).toEqual([ids.general, ids.news]);
    expect(channelsShown((await client.get(`${path}/stores/${created!.id}/items`)).text)).toBe('#general, #news');

    const edit = await client.get(`${path}/stores/${created!.id}`);
    expect(edit.text).toMatch(new RegExp(`value="${ids.general}" checked`));
    await client.post(`${path}/stores/${created!.id}`, { 'store-name': 'Colours', 'store-channels': ids.news, 'store-enabled': 'on' });
    expect((await db().selectFrom('shop_stores').select('channel_ids').where('id', '=', created!.id).executeTakeFirstOrThrow()).channel_ids).toEqual([ids.news]);
    expect(channelsShown((await client.get(`${path}/stores/${created!.id}/items`)).text)).toBe('#news');
    expect((await shopAudit(guild.id)).map((a) => [a.actor_id, a.action, (a.data as { channelIds?: string[] }).channelIds])).toEqual([
      [guild.managerId, 'shop.storeCreate', [ids.general, ids.news]],
      [guild.managerId, 'shop.storeUpdate', [ids.news]],
    ]);
  });

  it.each([
    ['more than 25 channels', 'Pick at most 25 channels.'],
    ['a channel of another server', 'Pick text channels of this server.'],
    ['a voice channel', 'Pick text channels of this server.'],
  ])("keeps %s on the store form's channel picker (400 INVALID_INPUT), changing nothing", async (what, message) => {
    const { guild, client, path, ids } = await withChannels();
    const many = Array.from({ length: 26 }, () => snowflake());
    await upsertPlatformChannels(db(), guild.id, many.map((channelId, i) => ({ channelId, name: `room-${i}`, type: 'text', position: 10 + i })));
    const sent = { 'more than 25 channels': many, 'a channel of another server': [ids.general, snowflake()], 'a voice channel': [ids.voice] }[what]!;
    const existing = await store(guild, { channelIds: [ids.general] });
    for (const action of [`${path}/stores`, `${path}/stores/${existing.id}`]) {
      await client.get(action === `${path}/stores` ? `${path}/stores/new` : action);
      const before = await state(guild.id);
      const res = await client.post(action, { 'store-name': 'Renamed', 'store-channels': sent });
      expect([action, res.status, errorCodeOf(res)]).toEqual([action, 400, 'INVALID_INPUT']);
      expect(fieldErrorOf(res.text, 'store-channels')).toBe(message);
      expect(res.text).toContain('value="Renamed"');
      expect(await state(guild.id)).toEqual(before);
    }
  });
});
