import { describe, expect, it } from 'vitest';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { addTestMember, snowflake } from '../harness/fixtures.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const { database, app } = useApiTestBed({ env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

async function signedInManager(features = ['levels']) {
  const guild = await managedGuild(database.db, 'Levels Guild');
  await database.db.updateTable('guilds').set({ features }).where('id', '=', guild.id).execute();
  const text = snowflake();
  const voice = snowflake();
  await upsertPlatformChannels(database.db, guild.id, [
    { channelId: text, name: 'level-ups', type: 'text', position: 1 },
    { channelId: voice, name: 'Lounge', type: 'voice', position: 2 },
  ]);
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, client, text, voice };
}

const settingsOf = (guildId: string) => database.db.selectFrom('level_settings').selectAll().where('guild_id', '=', guildId).execute();
const consoleAudit = (guildId: string) =>
  database.db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', 'action', 'data'])
    .where('guild_id', '=', guildId)
    .where('actor_type', '=', 'console_user')
    .where('action', '!=', 'console.signIn')
    .execute();

describe('the levels page', () => {
  it("finds any member's XP page by the start of their name (not only from the leaderboard) or by user id; a bad search is kept on the finder", async () => {
    const { guild, client } = await signedInManager();
    const quiet = await addTestMember(database.db, guild, { username: 'quiet-one' });
    const s = `/console/servers/${guild.id}/levels`;
    expect((await client.get(s)).text).toContain(`<form method="get" action="${s}/members" class="card" role="search">`);
    const found = await client.get(`${s}/members?member-q=QUIET`);
    expect(found.status).toBe(200);
    expect(found.text).toContain(`<a href="${s}/members/${quiet}">quiet-one</a> <small class="muted">${quiet}</small>`);
    const page = await client.get(`${s}/members/${quiet}`);
    expect([page.status, page.text.includes(`${s}/members/${quiet}/xp-changes`)]).toEqual([200, true]);
    const byId = await client.get(`${s}/members?member-id=${quiet}`);
    expect([byId.status, byId.headers.location]).toEqual([303, `${s}/members/${quiet}`]);
    expect((await client.get(`${s}/members?member-q=zz`)).text).toContain('data-empty="level-members"');
    for (const [query, field, message] of [
      ['member-q=%20', 'member-q', "Type the start of a member's name: 1 to 32 characters."],
      ['member-id=12', 'member-id', 'Give a user id: 17 to 20 digits.'],
    ]) {
      const res = await client.get(`${s}/members?${query}`);
      expect([res.status, errorCodeOf(res), new RegExp(`id="${field}-error"[^>]*>.*?</span>([^<]*)`, 's').exec(res.text)?.[1]]).toEqual([400, 'INVALID_INPUT', message]);
    }
  });

  it('shows the settings with the channels by name, and the leaderboard by member name, 25 a page', async () => {
    const { guild, client } = await signedInManager();
    const named = await addTestMember(database.db, guild, { username: 'top-talker' });
    const others = Array.from({ length: 26 }, (_, i) => ({ guild_id: guild.id, user_id: snowflake(), xp: 100 + i }));
    await database.db.insertInto('level_members').values([{ guild_id: guild.id, user_id: named, xp: 5_000 }, ...others]).execute();
    const page = await client.get(`/console/servers/${guild.id}/levels`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('#level-ups');
    // The announcement goes to a channel members read messages in; a voice channel is not offered for it.
    expect(/<select id="announce-channel".*?<\/select>/s.exec(page.text)?.[0]).not.toContain('Lounge');
    expect(page.text).toContain('GG {user}, you reached level {level}!');
    expect(page.text).toMatch(/id="message-cooldown"[^>]*value="60"/);
    // Each name opens the member's page (their XP change).
    expect(page.text).toContain(`<tr data-rank="1"><td>1</td><td><a href="/console/servers/${guild.id}/levels/members/${named}">top-talker</a></td>`);
    expect([...page.text.matchAll(/data-rank="(\d+)"/g)]).toHaveLength(25);
    expect(page.text).toContain(`href="/console/servers/${guild.id}/levels?cursor=25"`);
    const next = await client.get(`/console/servers/${guild.id}/levels?cursor=25`);
    expect([...next.text.matchAll(/data-rank="(\d+)"/g)].map((m) => m[1])).toEqual(['26', '27']);
    expect(next.text).not.toContain('rel="next"');
    const bad = await client.get(`/console/servers/${guild.id}/levels?cursor=x`);
    expect([bad.status, errorCodeOf(bad)]).toEqual([400, 'INVALID_INPUT']);
  });

  it('says what to do on an empty leaderboard, and offers to turn Levels on when it is off, coming back here', async () => {
    const { guild, client } = await signedInManager([]);
    const page = await client.get(`/console/servers/${guild.id}/levels`);
    expect(page.text).toContain('data-empty="leaderboard"');
    expect(page.text).toContain('data-feature-off="levels"');
    const on = await client.post(`/console/servers/${guild.id}/overview/features/levels`, { on: 'true', then: 'levels' });
    expect([on.status, on.headers.location]).toEqual([303, `/console/servers/${guild.id}/levels`]);
    expect((await client.get(on.headers.location!)).text).not.toContain('data-feature-off');
  });

  it("saves where and how level-ups are announced through the CLI's use case, audited with the console user", async () => {
    const { guild, client, text } = await signedInManager();
    await client.get(`/console/servers/${guild.id}/levels`);
    const res = await client.post(`/console/servers/${guild.id}/levels/settings`, { announceTo: 'channel', 'announce-channel': text, 'announce-message': 'Well done {user}: level {level}' });
    expect([res.status, res.headers.location]).toEqual([303, `/console/servers/${guild.id}/levels`]);
    expect(await settingsOf(guild.id)).toMatchObject([{ announce_to: 'channel', announce_channel_id: text, announce_template: 'Well done {user}: level {level}' }]);
    const audit = await consoleAudit(guild.id);
    expect(audit).toMatchObject([{ actor_type: 'console_user', actor_id: guild.managerId, action: 'levels.settings' }]);
    expect((audit[0]!.data as { after: unknown }).after).toMatchObject({ announceTo: 'channel', announceChannelId: text });
    const page = await client.get(`/console/servers/${guild.id}/levels`);
    expect(page.text).toMatch(new RegExp(`<option value="${text}" selected[^>]*>#level-ups`));
  });

  it.each([
    ['an unknown placeholder', { announceTo: 'dm', 'announce-message': 'Hi {member}' }, 422, 'INVALID_TEMPLATE', 'announce-message'],
    ['an empty message', { announceTo: 'dm', 'announce-message': '  ' }, 422, 'INVALID_TEMPLATE', 'announce-message'],
    ['a channel target without a channel', { announceTo: 'channel', 'announce-message': 'GG {user}' }, 422, 'ANNOUNCE_CHANNEL_REQUIRED', 'announce-channel'],
    ['a voice channel', { announceTo: 'channel', 'announce-channel': 'VOICE', 'announce-message': 'GG {user}' }, 422, 'INVALID_CHANNEL', 'announce-channel'],
    ['no place chosen', { 'announce-message': 'GG {user}' }, 400, 'INVALID_INPUT', 'announce-to'],
  ])('refuses %s on the form with its field named, changing nothing', async (_, fields, status, code, field) => {
    const { guild, client, voice } = await signedInManager();
    await client.get(`/console/servers/${guild.id}/levels`);
    const sent = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === 'VOICE' ? voice : v]));
    const res = await client.post(`/console/servers/${guild.id}/levels/settings`, sent);
    expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([status, code]);
    expect(res.text).toContain(`href="#${field}"`);
    expect(res.text).toContain(`id="${field}-error"`);
    // The input kept as sent.
    expect(res.text).toContain(`>${sent['announce-message']}</textarea>`);
    expect(await settingsOf(guild.id)).toEqual([]);
    expect(await consoleAudit(guild.id)).toEqual([]);
  });

  it('refuses a manager whose role was taken since the page opened 403, changing nothing', async () => {
    const { guild, client } = await signedInManager();
    await client.get(`/console/servers/${guild.id}/levels`);
    await database.db.updateTable('platform_members').set({ role_ids: [] }).where('guild_id', '=', guild.id).where('user_id', '=', guild.managerId).execute();
    const res = await client.post(`/console/servers/${guild.id}/levels/settings`, { announceTo: 'dm', 'announce-message': 'GG {user}' });
    expect([res.status, errorCodeOf(res)]).toEqual([403, 'NOT_A_SERVER_MANAGER']);
    expect(await settingsOf(guild.id)).toEqual([]);
  });
});
