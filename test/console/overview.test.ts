import { describe, expect, it } from 'vitest';
import { upsertPlatformRoles } from '../../db/platform/local.js';
import { insertEvent } from '../../db/shared/events.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { BOT_PERMISSION } from '../../src/core/botPermissions.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { bearer, createTestKey, snowflake } from '../harness/fixtures.js';
import { confirmLinesOf, errorCodeOf, signedInManager } from './consoleClient.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const { database, app } = useApiTestBed({ now: NOW, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });
const daysAgo = (n: number, hour = 10) => new Date(Date.UTC(2026, 2, 10 - n, hour));

const signedIn = (features?: string[]) => signedInManager(database.db, app.baseUrl, { name: 'Overview Guild', features });

const featuresOf = async (guildId: string) => (await database.db.selectFrom('guilds').select('features').where('id', '=', guildId).executeTakeFirstOrThrow()).features;
const consoleAudit = (guildId: string) =>
  database.db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', 'action', 'data'])
    .where('guild_id', '=', guildId)
    .where('actor_type', '=', 'console_user')
    .where('action', '!=', 'console.signIn')
    .orderBy('id')
    .execute();
/** The bar of one series on one day of a chart: its count, or undefined when the day has none. */
function barCount(html: string, chart: string, day: string, series: string): number | undefined {
  const figure = new RegExp(`<figure class="chart" data-chart="${chart}">(.*?)</figure>`, 's').exec(html)?.[1] ?? '';
  const group = new RegExp(`<g data-day="${day}">(.*?)</g>`, 's').exec(figure)?.[1] ?? '';
  const count = new RegExp(`data-series="${series}" data-count="(\\d+)"`).exec(group)?.[1];
  return count === undefined ? undefined : Number(count);
}

describe('the overview page', () => {
  it('is the landing page of a server the servers list links to, with the plan, every feature and its state', async () => {
    const { guild, client } = await signedIn(['levels', 'bank']);
    expect((await client.get('/console')).text).toContain(`href="/console/servers/${guild.id}/overview"`);
    const landing = await client.get(`/console/servers/${guild.id}`);
    const page = await client.get(`/console/servers/${guild.id}/overview`);
    expect([landing.status, page.status]).toEqual([200, 200]);
    expect(landing.text).toContain('<h1>Overview</h1>');
    expect(page.text).toContain('data-plan="pro"');
    expect(page.text).toContain('up to 10');
    expect([...page.text.matchAll(/data-feature="(\w+)" data-on="(true|false)"/g)].map((m) => `${m[1]}:${m[2]}`)).toEqual([
      'bank:true', 'levels:true', 'invites:false', 'shop:false', 'giveaways:false', 'flows:false',
      'tickets:false', 'applications:false', 'appeals:false', 'moderation:false', 'members:false',
    ]);
    // Never mirrored by the bot process: what the bot holds is not known, and the page says so rather than guessing.
    expect(page.text).toContain('data-permissions="unknown"');
    expect(page.text).not.toContain('data-held="false"');
    expect(page.text).toContain('Overview</a>');
  });

  it('draws members joined and left, XP earned and deliveries by outcome per day from the records, on the injected clock', async () => {
    const { guild, client } = await signedIn();
    for (const at of [daysAgo(1), daysAgo(1, 20)]) await insertEvent(database.db, { type: 'members.joined', guildId: guild.id, createdAt: at, data: {} });
    await insertEvent(database.db, { type: 'members.left', guildId: guild.id, createdAt: daysAgo(0, 1), data: {} });
    // Outside the 14 days: not drawn.
    await insertEvent(database.db, { type: 'members.joined', guildId: guild.id, createdAt: daysAgo(14), data: {} });
    const activity = (xpEarned: number, at: Date) => ({ guild_id: guild.id, actor_type: 'system' as const, action: 'levels.activity', data: JSON.stringify({ xpEarned }), created_at: at });
    await database.db.insertInto('audit_log').values([activity(15, daysAgo(2)), activity(20, daysAgo(2, 23)), activity(7, daysAgo(0))]).execute();
    const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/o', events: [], secret: 'whsec_o' });
    const statuses = ['succeeded', 'succeeded', 'failed', 'pending'] as const;
    const events: Array<{ id: string }> = [];
    for (const _ of statuses) events.push(await insertEvent(database.db, { type: 'bank.transaction', guildId: guild.id, createdAt: daysAgo(3), data: {} }));
    // Their deliveries as made three days ago, by outcome.
    await database.db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', endpoint.id).execute();
    await database.db
      .insertInto('webhook_deliveries')
      .values(statuses.map((status, i) => ({ endpoint_id: endpoint.id, event_id: events[i]!.id, body: '{}', status, created_at: daysAgo(3) })))
      .execute();

    const page = (await client.get(`/console/servers/${guild.id}/overview`)).text;
    expect(barCount(page, 'members-by-day', '2026-03-09', 'joined')).toBe(2);
    expect(barCount(page, 'members-by-day', '2026-03-10', 'left')).toBe(1);
    expect(barCount(page, 'members-by-day', '2026-03-09', 'left')).toBeUndefined();
    expect(page).not.toContain('data-day="2026-02-24"');
    expect(page).toContain('data-day="2026-02-25"');
    expect(barCount(page, 'xp-by-day', '2026-03-08', 'xp')).toBe(35);
    expect(barCount(page, 'xp-by-day', '2026-03-10', 'xp')).toBe(7);
    expect(barCount(page, 'deliveries-by-day', '2026-03-07', 'succeeded')).toBe(2);
    expect(barCount(page, 'deliveries-by-day', '2026-03-07', 'failed')).toBe(1);
    expect(barCount(page, 'deliveries-by-day', '2026-03-07', 'pending')).toBe(1);
    expect(barCount(page, 'deliveries-by-day', '2026-03-07', 'cancelled')).toBeUndefined();
    // The same figures for screen readers: the summary and the table.
    expect(page).toContain('Over the last 14 days: 2 joined, 1 left.');
    expect(page).toContain('Over the last 14 days: 42 XP.');
  });

  it("shows what each feature needs of the bot and lacks, from the permissions the bot process recorded, and a platform stop", async () => {
    const { guild, client } = await signedIn(['levels', 'shop', 'moderation']);
    const botRole = snowflake();
    await upsertPlatformRoles(database.db, guild.id, [{ roleId: botRole, name: 'Bot', position: 1, permissions: BOT_PERMISSION.manageRoles | BOT_PERMISSION.viewChannel | BOT_PERMISSION.sendMessages }]);
    await database.db.updateTable('platform_members').set({ role_ids: [botRole] }).where('guild_id', '=', guild.id).where('user_id', '=', guild.botUserId).execute();
    await database.db.updateTable('platform_guilds').set({ mirrored_at: daysAgo(0) }).where('guild_id', '=', guild.id).execute();
    await database.db.insertInto('platform_blocks').values({ platform: 'discord', blocked_until: new Date(NOW.getTime() + 3_600_000), reason: 'cloudflare', set_by: 'worker-1' }).execute();
    try {
      const page = (await client.get(`/console/servers/${guild.id}/overview`)).text;
      expect(page).toContain('data-permissions="known"');
      const feature = (name: string) => new RegExp(`<li data-feature="${name}".*?</ul>(.*?)</li>`, 's').exec(page)?.[0] ?? '';
      const held = (name: string) => [...feature(name).matchAll(/data-permission="([^"]+)" data-held="(\w+)"/g)].map((m) => `${m[1]}=${m[2]}`);
      expect(held('shop')).toEqual(['Manage Roles=true']);
      expect(held('levels')).toEqual(['Manage Roles=true', 'View Channels=true', 'Send Messages=true', 'Embed Links=false']);
      expect(held('moderation')).toContain('Ban Members=false');
      expect(feature('levels')).toContain('data-missing="levels"');
      expect(feature('shop')).not.toContain('data-missing');
      // A feature that is off lists its needs without the warning.
      expect(feature('tickets')).toContain('Manage Channels');
      expect(feature('tickets')).not.toContain('data-missing');
      expect(page).toContain('data-platform-block');
      expect(page).toContain('2026-03-10 13:00:00 UTC');
    } finally {
      await database.db.deleteFrom('platform_blocks').execute();
    }
  });

  it('says when the bot process saw the bot removed from the server', async () => {
    const { guild, client } = await signedIn();
    await database.db.updateTable('platform_guilds').set({ mirrored_at: daysAgo(1) }).where('guild_id', '=', guild.id).execute();
    // The local platform answers for the server (the manager rule passes); the bot process's record says it left.
    await database.db.updateTable('platform_guilds').set({ left_at: daysAgo(0) }).where('guild_id', '=', guild.id).execute();
    const res = await client.get(`/console/servers/${guild.id}/overview`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-permissions="removed"');
    expect(res.text).not.toContain('data-permissions="known"');
  });

  it('lists the recent audit entries with the names of the people behind them, and an empty state on a new server', async () => {
    const { guild, client } = await signedIn();
    await database.db.deleteFrom('audit_log').where('guild_id', '=', guild.id).execute();
    const empty = (await client.get(`/console/servers/${guild.id}/overview`)).text;
    expect(empty).toContain('data-empty="recent"');
    await createTestKey(database.db, guild, { name: 'reporting' });
    await client.get(`/console/servers/${guild.id}/keys`);
    await client.post(`/console/servers/${guild.id}/keys`, { name: 'console made', scopes: 'guild:read' });
    const page = (await client.get(`/console/servers/${guild.id}/overview`)).text;
    expect(page).not.toContain('data-empty="recent"');
    expect(page).toMatch(/manager \(console\): <code>api_key\.create<\/code>/);
  });
});

describe('the feature switch', () => {
  it("turns a feature off only once confirmed, and on at once, through the admin CLI's use case, audited with the console user, and the API follows", async () => {
    const { guild, client } = await signedIn(['bank', 'levels']);
    const key = await createTestKey(database.db, guild, { scopes: ['levels:read'] });
    const overview = `/console/servers/${guild.id}/overview`;
    const path = `${overview}/features/levels`;
    await client.get(overview);
    const asked = await client.post(path, { on: 'false' });
    expect([asked.status, asked.headers.location]).toEqual([303, `${path}/off?then=overview`]);
    const confirm = await client.get(asked.headers.location!);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('<title>Turn Levels off?');
    expect(confirmLinesOf(confirm.text, 'data-feature-off-effects')).toEqual([
      "The console's Levels pages say it is off and offer to turn it back on; their actions are refused.",
      'Its API endpoints answer 409 <code>FEATURE_DISABLED</code> to every key.',
      "The bot's commands and buttons for Levels answer that it is turned off, and the bot stops doing its work for Levels on its own.",
    ]);
    expect(confirm.text).toContain('Nothing is deleted: its settings and records stay, and turning Levels back on brings them back as they were.');
    expect(confirm.text).toContain(`href="${overview}">Cancel</a>`);
    // Nothing changes before the confirmation.
    expect(await featuresOf(guild.id)).toEqual(['bank', 'levels']);
    expect(await consoleAudit(guild.id)).toEqual([]);

    const off = await client.post(`${path}/off`, { then: 'overview' });
    expect([off.status, off.headers.location]).toEqual([303, overview]);
    expect(await featuresOf(guild.id)).toEqual(['bank']);
    const refused = await app.http('GET', `/guilds/${guild.id}/levels/leaderboard`, { headers: bearer(key.key) });
    expect([refused.status, refused.body.error]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await consoleAudit(guild.id)).toEqual([{ actor_type: 'console_user', actor_id: guild.managerId, action: 'guild.update', data: { features: ['bank'] } }]);

    // The confirmation sent again (a reload of the POST) changes nothing.
    const again = await client.post(`${path}/off`, { then: 'overview' });
    expect([again.status, again.headers.location]).toEqual([303, overview]);
    expect(await consoleAudit(guild.id)).toHaveLength(1);

    const page = await client.get(overview);
    expect(page.text).toContain('data-feature="levels" data-on="false"');
    const on = await client.post(path, { on: 'true', then: 'https://elsewhere.example' });
    expect([on.status, on.headers.location]).toEqual([303, overview]);
    expect(await featuresOf(guild.id)).toEqual(['bank', 'levels']);
    expect((await app.http('GET', `/guilds/${guild.id}/levels/leaderboard`, { headers: bearer(key.key) })).status).toBe(200);
  });

  it("names the Bank's own code, leaves out pages a feature has none of, keeps `then` inside the server's pages, and Cancel changes nothing", async () => {
    const { guild, client } = await signedIn(['bank', 'levels', 'members']);
    const overview = `/console/servers/${guild.id}/overview`;
    const bank = await client.get(`${overview}/features/bank/off?then=bank`);
    expect(confirmLinesOf(bank.text, 'data-feature-off-effects')).toContain('Its API endpoints answer 409 <code>BANK_DISABLED</code> to every key.');
    expect(bank.text).toContain(`href="/console/servers/${guild.id}/bank">Cancel</a>`);
    expect(bank.text).toContain('name="then" value="bank"');
    const members = await client.get(`${overview}/features/members/off`);
    expect(confirmLinesOf(members.text, 'data-feature-off-effects')).toHaveLength(2);
    expect(members.text).not.toContain("The console's Members pages");
    const away = await client.get(`${overview}/features/levels/off?then=https://elsewhere.example`);
    expect(away.text).toContain(`href="${overview}">Cancel</a>`);
    expect(away.text).toContain('name="then" value="overview"');
    expect(await featuresOf(guild.id)).toEqual(['bank', 'levels', 'members']);
    expect(await consoleAudit(guild.id)).toEqual([]);
    // A confirmation posted with a `then` outside the server's pages comes back to the overview.
    const off = await client.post(`${overview}/features/levels/off`, { then: '//elsewhere.example' });
    expect([off.status, off.headers.location]).toEqual([303, overview]);
    expect(await featuresOf(guild.id)).toEqual(['bank', 'members']);
  });

  it('refuses an unknown feature 404 and a missing on/off 400, changing nothing', async () => {
    const { guild, client } = await signedIn(['levels']);
    await client.get(`/console/servers/${guild.id}/overview`);
    const token = client.state.forms.get(`/console/servers/${guild.id}/overview/features/levels`)!;
    const unknown = await client.post(`/console/servers/${guild.id}/overview/features/karaoke`, { on: 'true' }, { form: token });
    expect([unknown.status, errorCodeOf(unknown)]).toEqual([404, 'PAGE_NOT_FOUND']);
    const vague = await client.post(`/console/servers/${guild.id}/overview/features/levels`, { on: 'maybe' });
    expect([vague.status, errorCodeOf(vague)]).toEqual([400, 'INVALID_INPUT']);
    expect(await featuresOf(guild.id)).toEqual(['levels']);
    expect(await consoleAudit(guild.id)).toEqual([]);
    for (const res of [await client.get(`/console/servers/${guild.id}/overview/features/karaoke/off`), await client.post(`/console/servers/${guild.id}/overview/features/karaoke/off`)]) {
      expect([res.status, errorCodeOf(res)]).toEqual([404, 'PAGE_NOT_FOUND']);
    }
    expect(await featuresOf(guild.id)).toEqual(['levels']);
    // The refused form's token was not spent: the same form still works.
    expect((await client.post(`/console/servers/${guild.id}/overview/features/levels`, { on: 'true' })).status).toBe(303);
  });

  it('refuses a manager whose role was taken since the page opened 403, changing nothing', async () => {
    const { guild, client } = await signedIn(['levels']);
    expect((await client.get(`/console/servers/${guild.id}/overview`)).status).toBe(200);
    expect((await client.get(`/console/servers/${guild.id}/overview/features/levels/off`)).status).toBe(200);
    await database.db.updateTable('platform_members').set({ role_ids: [] }).where('guild_id', '=', guild.id).where('user_id', '=', guild.managerId).execute();
    for (const action of ['levels', 'levels/off']) {
      const refused = await client.post(`/console/servers/${guild.id}/overview/features/${action}`, { on: 'false' });
      expect([action, refused.status, errorCodeOf(refused)]).toEqual([action, 403, 'NOT_A_SERVER_MANAGER']);
    }
    expect(await featuresOf(guild.id)).toEqual(['levels']);
    expect(await consoleAudit(guild.id)).toEqual([]);
  });
});
