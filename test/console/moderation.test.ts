import { afterAll, describe, expect, it } from 'vitest';
import { addCaseEvent, insertCase, resolveCase } from '../../db/moderation/cases.js';
import { finishModAction } from '../../db/moderation/actions.js';
import { saveModerationSettings } from '../../db/moderation/settings.js';
import { upsertPlatformMember } from '../../db/platform/local.js';
import { addMember, serverError, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { requestModAction } from '../../src/moderation/requestModAction.js';
import { createDiscordGuild, discordPlatformOn } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { newTestCase } from '../harness/modCases.js';
import { snowflake } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { consoleClient, errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { featureOff } from './ticketBed.js';

// Moderation from the dashboard on the fake Discord: the api and the worker use the Discord adapter, so an action's
// effect is a real HTTP request to the fake, carried out by the same workflow as the API's (test/workflows/
// discordModeration.test.ts). The manager signs in with the development sign-in (a local person with their id).

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform }, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });

/** A server on the fake whose manager (Admin role: Administrator, top of the ladder) is signed in to the console. */
async function signedIn(options: { dm?: boolean } = {}) {
  const g = await createDiscordGuild(db(), fake);
  await saveModerationSettings(db(), g.id, { dmMembers: options.dm ?? true, logChannelId: null, warningExpirySeconds: null });
  const managerId = snowflake();
  addMember(fake.state, fake.state.guilds.get(g.id)!, { id: managerId, username: 'boss', roles: [g.roles.admin] });
  await upsertPlatformMember(db(), { guildId: g.id, userId: managerId, username: 'boss', bot: false, roleIds: [] });
  const client = consoleClient(app.baseUrl);
  await client.signIn(managerId);
  const path = `/console/servers/${g.id}/moderation`;
  return { g, managerId, client, path, actions: `${path}/actions` };
}


const casesOn = (html: string) => [...html.matchAll(/data-case="(\d+)"/g)].map((m) => Number(m[1]));
const dmsTo = (userId: string) => [...fake.state.messages.values()].filter((m) => m.channel_id === fake.state.dmChannels.get(userId));
const writesTo = (guildId: string) => fake.requests.filter((r) => r.method !== 'GET' && r.path.includes(guildId)).length;
const reasonOf = (r: { headers: Record<string, string> }) => decodeURIComponent(r.headers['x-audit-log-reason'] ?? '');

const state = async (guildId: string, target: string) => ({
  actions: await db().selectFrom('moderation_actions').select(['action_id', 'status']).where('guild_id', '=', guildId).execute(),
  cases: await db().selectFrom('moderation_cases').select('number').where('guild_id', '=', guildId).execute(),
  audit: await db().selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
  discordWrites: writesTo(guildId),
  dms: dmsTo(target).length,
});

/** Follows the action's status page until it is done or failed. */
async function finished(client: ReturnType<typeof consoleClient>, statusPath: string) {
  return eventually(
    () => client.get(statusPath),
    (res) => /data-status="(done|failed)"/.test(res.text),
  );
}

describe('moderation cases in the dashboard', () => {
  it('lists cases with names, filters them as the API does, pages with OlderLink, and shows a case with its timeline', async () => {
    const { g, client, path } = await signedIn();
    const target = g.addMember();
    const first = await insertCase(db(), newTestCase(g.id, { action: 'timeout', userId: target, moderatorId: g.moderatorId, durationSeconds: 3_600, active: true, evidence: ['https://example.com/proof'], source: 'api', apiKey: { id: g.keyId, name: 'mod key' } }));
    await db().transaction().execute(async (trx) => {
      await addCaseEvent(trx, { guildId: g.id, caseNumber: first.number, type: 'dm', actorId: null, data: { status: 'sent' }, at: new Date('2026-05-01T10:00:01.000Z') });
      await resolveCase(trx, { guildId: g.id, caseNumber: first.number, how: 'revoked', actorId: g.moderatorId, data: { byCase: 2 }, at: new Date('2026-05-01T10:05:00.000Z') });
    });
    const gone = snowflake();
    await insertCase(db(), newTestCase(g.id, { action: 'ban', userId: gone, userTag: 'leftalready', moderatorId: g.moderatorId, source: 'console' }));
    for (let i = 0; i < 25; i++) await insertCase(db(), newTestCase(g.id, { reason: `filler ${i}` }));

    const list = await client.get(path);
    expect(list.status).toBe(200);
    expect(list.text).toContain('aria-current="page">Moderation</a>');
    const firstPage = casesOn(list.text);
    expect(firstPage).toEqual(Array.from({ length: 25 }, (_, i) => 27 - i));
    const older = /href="([^"]*before=[^"]*)"/.exec(list.text)![1]!.replaceAll('&amp;', '&');
    expect(casesOn((await client.get(older)).text)).toEqual([2, 1]);

    const byMember = await client.get(`${path}?userId=${target}`);
    expect(casesOn(byMember.text)).toEqual([1]);
    // The member and the moderator by name; the API key the action came through.
    expect(byMember.text).toContain(`<td>timeout</td><td>user${target.slice(-4)}</td><td>mod<span class="muted"> (API key mod key)</span></td><td>api</td>`);
    expect(casesOn((await client.get(`${path}?source=console`)).text)).toEqual([2]);
    expect((await client.get(`${path}?source=console`)).text).toContain('<td>leftalready</td>');
    expect(casesOn((await client.get(`${path}?action=ban&moderatorId=${g.moderatorId}`)).text)).toEqual([2]);
    expect(casesOn((await client.get(`${path}?action=tempban`)).text)).toEqual([]);
    expect((await client.get(`${path}?action=tempban`)).text).toContain('No case matches these filters.');
    expect(casesOn((await client.get(`${path}?active=0&action=timeout`)).text)).toEqual([1]);
    for (const bad of ['action=smite', 'source=web', 'userId=12', 'active=maybe', 'before=0']) {
      const res = await client.get(`${path}?${bad}`);
      expect([bad, res.status, errorCodeOf(res)]).toEqual([bad, 400, 'INVALID_INPUT']);
    }

    const page = await client.get(`${path}/cases/${first.number}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Case #1: timeout · Community Bot console</title>');
    expect(page.text).toContain('<dt>Duration</dt><dd>1 hour</dd>');
    expect(page.text).toContain('href="https://example.com/proof"');
    const timeline = [...page.text.matchAll(/<li data-event="([a-z_]+)">/g)].map((m) => m[1]);
    expect(timeline).toEqual(['created', 'dm', 'revoked']);
    expect(page.text).toContain('Direct message to the member sent');
    expect(page.text).toContain(`Revoked by <a href="${path}/cases/2">case #2</a> by mod`);
    expect(page.text).toContain(`href="${path}/actions/new?mod-member=${target}"`);
    const missing = await client.get(`${path}/cases/999`);
    expect([missing.status, errorCodeOf(missing)]).toEqual([404, 'CASE_NOT_FOUND']);
  });

  it('finds a member or moderator by name, each found a link to the cases filtered by them, or by id; a bad id is 400 on its field', async () => {
    const { g, client, path } = await signedIn();
    const target = g.addMember();
    await insertCase(db(), newTestCase(g.id, { action: 'warn', userId: target, moderatorId: g.moderatorId }));
    await insertCase(db(), newTestCase(g.id, { action: 'kick' }));
    const found = await client.get(`${path}/members?member-q=${encodeURIComponent(`user${target.slice(-4)}`)}`);
    expect(found.status).toBe(200);
    const link = `${path}?userId=${target}`;
    expect(found.text).toContain(`<a href="${link}">user${target.slice(-4)}</a>`);
    const filtered = await client.get(link);
    expect(casesOn(filtered.text)).toEqual([1]);
    // The active filter by name, kept by the other filters' form.
    expect(filtered.text).toContain(`Member: <strong>user${target.slice(-4)}</strong>`);
    expect(filtered.text).toContain(`<input type="hidden" name="userId" value="${target}"/>`);
    const mods = await client.get(`${path}/moderators?member-q=mod`);
    expect(mods.text).toContain(`<a href="${path}?moderatorId=${g.moderatorId}">mod</a>`);
    const gone = snowflake();
    const byId = await client.get(`${path}/members?member-id=${gone}`);
    expect([byId.status, byId.headers.location]).toEqual([303, `${path}?userId=${gone}`]);
    const before = await state(g.id, target);
    const bad = await client.get(`${path}/members?member-id=12`);
    expect([bad.status, errorCodeOf(bad), fieldErrorOf(bad.text, 'member-id')]).toEqual([400, 'INVALID_INPUT', 'Give a user id: 17 to 20 digits.']);
    expect(await state(g.id, target)).toEqual(before);
  });

  it('says what to do on a server without cases', async () => {
    const { client, path } = await signedIn();
    expect((await client.get(path)).text).toContain('data-empty="cases"');
  });
});

describe('moderation actions from the dashboard', () => {
  it("bans after a confirmation, through the API's workflow: the ban and the DM reach Discord, the case names the console user with source console, audited", async () => {
    const { g, managerId, client, actions } = await signedIn();
    const target = g.addMember();
    // Picked by name: the search (Discord's member search on the fake) offers the member as a radio carrying their id.
    const form = await client.get(`${actions}/new?mod-member-q=${encodeURIComponent(` USER${target.slice(-4)} `)}`);
    expect(form.status).toBe(200);
    expect(form.text).toMatch(new RegExp(`<input type="radio" name="mod-member" value="${target}"[^>]*/> user${target.slice(-4)} <small class="muted">${target}</small>`));
    expect(fake.requests.some((r) => r.path === `/guilds/${g.id}/members/search` && r.query.get('query') === `USER${target.slice(-4)}` && r.query.get('limit') === '10')).toBe(true);
    const fields = { 'mod-action': 'ban', 'mod-member': target, 'mod-reason': 'scam links', 'mod-delete': '86400', 'mod-evidence': 'https://example.com/a\nhttps://example.com/b' };
    const before = await state(g.id, target);
    const confirm = await client.post(actions, fields);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(`data-confirm="ban"`);
    expect(confirm.text).toContain(`user${target.slice(-4)} is banned until someone lifts the ban. Their messages of the last day are deleted.`);
    expect(await state(g.id, target)).toEqual(before);

    const res = await client.post(actions, { ...fields, 'mod-confirmed': 'yes' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(new RegExp(`^${actions}/mda_[A-Za-z0-9_-]{16}$`));
    const done = await finished(client, res.headers.location!);
    expect(done.text).toContain('data-status="done"');
    expect(done.text).toContain(`/cases/1">#1</a>`);

    const puts = fake.requests.filter((r) => r.method === 'PUT' && r.path === `/guilds/${g.id}/bans/${target}`);
    expect(puts.map((r) => [r.body, reasonOf(r)])).toEqual([[{ delete_message_seconds: 86_400 }, `scam links (via the console by user ${managerId})`]]);
    expect(fake.state.guilds.get(g.id)!.members.has(target)).toBe(false);
    expect(dmsTo(target).map((m) => m.content)).toEqual(['You were banned from Discord Test Guild.\nReason: scam links\nTo appeal, press Appeal below.']);
    const cases = await db().selectFrom('moderation_cases').select(['number', 'action', 'source', 'moderator_id', 'api_key_id', 'evidence', 'dm_status']).where('guild_id', '=', g.id).execute();
    expect(cases).toEqual([{ number: 1, action: 'ban', source: 'console', moderator_id: managerId, api_key_id: null, evidence: ['https://example.com/a', 'https://example.com/b'], dm_status: 'sent' }]);
    const audit = await db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'target_id', 'data']).where('guild_id', '=', g.id).where('action', '=', 'moderation.ban').execute();
    expect(audit).toEqual([{ actor_type: 'console_user', actor_id: managerId, target_id: target, data: { caseNumber: 1, source: 'console', reason: 'scam links', durationSeconds: null } }]);

    // The same confirmed form again (a reload, a double click) goes to the first action's page and does nothing more.
    const again = await client.post(actions, { ...fields, 'mod-confirmed': 'yes' }, { form: /name="_form" value="([^"]+)"/.exec(confirm.text)![1] });
    expect([again.status, again.headers.location]).toEqual([303, res.headers.location]);
    expect(await db().selectFrom('moderation_actions').select('action_id').where('guild_id', '=', g.id).execute()).toHaveLength(1);
  });

  it('kicks and times out after a confirmation, and warns at once, each reaching Discord in the manager’s name', async () => {
    const { g, managerId, client, actions } = await signedIn({ dm: false });
    const [kicked, silenced, warned] = [g.addMember(), g.addMember(), g.addMember()];
    await client.get(`${actions}/new`);
    await client.post(actions, { 'mod-action': 'kick', 'mod-member': kicked, 'mod-reason': 'rude' });
    const kick = await client.post(actions, { 'mod-action': 'kick', 'mod-member': kicked, 'mod-reason': 'rude', 'mod-confirmed': 'yes' });
    expect((await finished(client, kick.headers.location!)).text).toContain('data-status="done"');
    const deletes = fake.requests.filter((r) => r.method === 'DELETE' && r.path === `/guilds/${g.id}/members/${kicked}`);
    expect(deletes.map(reasonOf)).toEqual([`rude (via the console by user ${managerId})`]);

    await client.get(`${actions}/new`);
    const confirm = await client.post(actions, { 'mod-action': 'timeout', 'mod-member': silenced, 'mod-duration': '2', 'mod-duration-unit': 'hours' });
    expect(confirm.text).toContain(`user${silenced.slice(-4)} cannot write, talk or react for 2 hours.`);
    const timeout = await client.post(actions, { 'mod-action': 'timeout', 'mod-member': silenced, 'mod-duration': '2', 'mod-duration-unit': 'hours', 'mod-confirmed': 'yes' });
    expect((await finished(client, timeout.headers.location!)).text).toContain('data-status="done"');
    const until = fake.state.guilds.get(g.id)!.members.get(silenced)!.communication_disabled_until;
    expect(until).not.toBeNull();

    await client.get(`${actions}/new`);
    const warn = await client.post(actions, { 'mod-action': 'warn', 'mod-member': warned, 'mod-reason': 'no spam' });
    expect(warn.status).toBe(303);
    expect((await finished(client, warn.headers.location!)).text).toContain('data-status="done"');
    const cases = await db().selectFrom('moderation_cases').select(['action', 'source', 'moderator_id', 'duration_seconds', 'dm_status']).where('guild_id', '=', g.id).orderBy('number').execute();
    expect(cases).toEqual([
      { action: 'kick', source: 'console', moderator_id: managerId, duration_seconds: null, dm_status: 'off' },
      { action: 'timeout', source: 'console', moderator_id: managerId, duration_seconds: 7_200, dm_status: 'off' },
      { action: 'warn', source: 'console', moderator_id: managerId, duration_seconds: null, dm_status: 'off' },
    ]);
    const audit = await db().selectFrom('audit_log').select(['action', 'actor_type', 'actor_id']).where('guild_id', '=', g.id).where('action', 'like', 'moderation.%').orderBy('id').execute();
    expect(audit).toEqual(['kick', 'timeout', 'warn'].map((a) => ({ action: `moderation.${a}`, actor_type: 'console_user', actor_id: managerId })));
  });

  it.each([
    ['a member above the manager', 'kick', 'above', 409, 'HIERARCHY_HIGHER', 'mod-member', "This member's highest role is not below both yours and the bot's, or they own the server."],
    ['the owner', 'ban', 'owner', 409, 'HIERARCHY_HIGHER', 'mod-member', "This member's highest role is not below both yours and the bot's, or they own the server."],
    ['the manager themselves', 'warn', 'self', 409, 'INVALID_TARGET', 'mod-member', 'This action cannot be taken on yourself or on the bot.'],
    ['a user who is not a member', 'kick', 'stranger', 404, 'MEMBER_NOT_FOUND', 'mod-member', 'This user is not a member of the server.'],
    ['a user who is not banned', 'unban', 'member', 409, 'NOT_BANNED', 'mod-member', 'This user is not banned.'],
  ])('refuses %s on the form with the API’s code (%s → %s %s), nothing sent to Discord or stored', async (_, action, who, status, code, field, message) => {
    const { g, managerId, client, actions } = await signedIn();
    const above = snowflake();
    addMember(fake.state, fake.state.guilds.get(g.id)!, { id: above, username: 'peer', roles: [g.roles.admin] });
    const target = { above, owner: g.ownerId, self: managerId, stranger: snowflake(), member: g.addMember() }[who]!;
    await client.get(`${actions}/new`);
    const before = await state(g.id, target);
    const fields = { 'mod-action': action, 'mod-member': target, 'mod-reason': 'x' };
    // A kick or ban is refused already on its way to the confirmation; every one is refused when confirmed.
    for (const sent of [fields, { ...fields, 'mod-confirmed': 'yes' }]) {
      const res = await client.post(actions, sent);
      expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([status, code]);
      expect(fieldErrorOf(res.text, field)).toBe(message);
      expect(res.text).toContain(`value="${target}"`);
    }
    expect(await state(g.id, target)).toEqual(before);
  });

  it.each([
    ['no action', { 'mod-reason': 'x' }, 'mod-action', 'Choose an action: warn, timeout, untimeout, kick, ban, unban.'],
    ['an unknown action', { 'mod-action': 'softban' }, 'mod-action', 'Choose an action: warn, timeout, untimeout, kick, ban, unban.'],
    ['no member', { 'mod-action': 'kick', 'mod-member': '' }, 'mod-member', 'Pick a member: search by name and choose one, or give their user id (17 to 20 digits).'],
    ['a name instead of an id', { 'mod-action': 'kick', 'mod-member': 'someone' }, 'mod-member', 'Pick a member: search by name and choose one, or give their user id (17 to 20 digits).'],
    ['a name in the by-id input', { 'mod-action': 'kick', 'mod-member-id': 'someone' }, 'mod-member-id', 'Pick a member: search by name and choose one, or give their user id (17 to 20 digits).'],
    ['a warning without a reason', { 'mod-action': 'warn' }, 'mod-reason', 'Give a reason of 1 to 500 characters, without the character U+0000: the member is told it.'],
    ['a reason of 501 characters', { 'mod-action': 'kick', 'mod-reason': 'x'.repeat(501) }, 'mod-reason', 'Give a reason of up to 500 characters, without the character U+0000.'],
    ['a reason with U+0000', { 'mod-action': 'kick', 'mod-reason': 'a\u0000b' }, 'mod-reason', 'Give a reason of up to 500 characters, without the character U+0000.'],
    ['a timeout without a duration', { 'mod-action': 'timeout' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a timeout of 29 days', { 'mod-action': 'timeout', 'mod-duration': '29', 'mod-duration-unit': 'days' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a timeout of 0 minutes', { 'mod-action': 'timeout', 'mod-duration': '0' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a duration that is no number', { 'mod-action': 'timeout', 'mod-duration': '1.5' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a duration in weeks', { 'mod-action': 'timeout', 'mod-duration': '1', 'mod-duration-unit': 'weeks' }, 'mod-duration', 'A timeout lasts 1 minute to 28 days.'],
    ['a tempban of 366 days', { 'mod-action': 'ban', 'mod-duration': '366', 'mod-duration-unit': 'days' }, 'mod-duration', 'A temporary ban lasts 1 minute to 365 days; leave the duration empty for a permanent ban.'],
    ['8 days of deleted messages', { 'mod-action': 'ban', 'mod-delete': '691200' }, 'mod-delete', 'Choose how far back to delete messages: none, 1 hour, 6 hours, 1 day, 3 days or 7 days.'],
    ['six evidence links', { 'mod-action': 'kick', 'mod-evidence': Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`).join('\n') }, 'mod-evidence', 'Give up to 5 links, one per line, each an http(s) address of up to 500 characters.'],
    ['evidence that is no link', { 'mod-action': 'kick', 'mod-evidence': 'see the screenshot' }, 'mod-evidence', 'Give up to 5 links, one per line, each an http(s) address of up to 500 characters.'],
  ] as Array<[string, Record<string, string>, string, string]>)('keeps %s on the form (400 INVALID_INPUT, the field named) and changes nothing', async (_, fields, field, message) => {
    const { g, client, actions } = await signedIn();
    const target = g.addMember();
    await client.get(`${actions}/new`);
    const before = await state(g.id, target);
    for (const confirmed of [{}, { 'mod-confirmed': 'yes' }] as Array<Record<string, string>>) {
      const res = await client.post(actions, { 'mod-member': target, ...fields, ...confirmed });
      expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([400, 'INVALID_INPUT']);
      expect(fieldErrorOf(res.text, field)).toBe(message);
    }
    expect(await state(g.id, target)).toEqual(before);
  });

  it.each([
    ['an empty query', '   ', "Type the start of a member's name: 1 to 32 characters."],
    ['a query of 33 characters', 'x'.repeat(33), 'Names are at most 32 characters: type the start of one.'],
  ])('refuses a member search with %s (400 INVALID_INPUT on the search field), asking Discord nothing and keeping the form', async (_, query, message) => {
    const { g, client, actions } = await signedIn();
    const searches = () => fake.requests.filter((r) => r.path === `/guilds/${g.id}/members/search`).length;
    const before = searches();
    const res = await client.get(`${actions}/new?mod-action=warn&mod-reason=spam&mod-member-q=${encodeURIComponent(query)}`);
    expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, 'mod-member-q')).toBe(message);
    expect(res.text).toContain('value="warn" checked');
    expect(res.text).toContain('>spam</textarea>');
    expect(searches()).toBe(before);
  });

  it('says when no member matches, answers 503 with Retry-After when Discord fails the search, and unbans a departed user by id', async () => {
    const { g, managerId, client, actions } = await signedIn();
    const none = await client.get(`${actions}/new?mod-member-q=zz-nobody`);
    expect(none.status).toBe(200);
    expect(none.text).toContain("No member's name starts with “zz-nobody”. Someone who left the server can be given by user id below.");

    fake.fail({ method: 'GET', path: `/guilds/${g.id}/members/search`, answer: serverError(502), times: 3 });
    const down = await client.get(`${actions}/new?mod-action=unban&mod-member-q=user`);
    expect([down.status, down.headers['retry-after'], /data-error="([A-Z_]+)"/.exec(down.text)?.[1]]).toEqual([503, '5', 'PLATFORM_UNAVAILABLE']);
    expect(fieldErrorOf(down.text, 'mod-member-q')).toBe('Discord did not answer the search. Try again in a moment; the form keeps what you entered.');
    expect(down.text).toContain('value="unban" checked');

    // Someone banned is no member: the search cannot find them, the by-id input takes them.
    const banned = snowflake();
    fake.state.users.set(banned, { id: banned, username: 'gone', discriminator: '0', global_name: null, avatar: null });
    fake.state.guilds.get(g.id)!.bans.set(banned, { user: fake.state.users.get(banned)!, reason: 'old' });
    const res = await client.post(actions, { 'mod-action': 'unban', 'mod-member-id': banned, 'mod-reason': 'served' });
    expect(res.status).toBe(303);
    expect((await finished(client, res.headers.location!)).text).toContain('data-status="done"');
    expect(fake.state.guilds.get(g.id)!.bans.has(banned)).toBe(false);
    const audit = await db().selectFrom('audit_log').select(['actor_id', 'target_id']).where('guild_id', '=', g.id).where('action', '=', 'moderation.unban').execute();
    expect(audit).toEqual([{ actor_id: managerId, target_id: banned }]);
  });

  it("shows a refused action's code, and only the console's own actions of this server", async () => {
    const { g, managerId, client, actions } = await signedIn();
    const target = g.addMember();
    const asked = { guildId: g.id, userId: target, action: 'kick' as const, request: {}, requestedAt: new Date() };
    const refused = await requestModAction(db(), { ...asked, by: { moderatorId: managerId, via: 'console' } });
    await finishModAction(db(), refused.actionId, { status: 'failed', error: 'HIERARCHY_HIGHER' }, new Date());
    const page = await client.get(`${actions}/${refused.actionId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-status="failed"');
    expect(page.text).toContain(`<dd data-error="HIERARCHY_HIGHER">This member's highest role is not below both yours and the bot's, or they own the server.`);
    const viaApi = await requestModAction(db(), { ...asked, by: { apiKeyId: g.keyId } });
    const other = await signedIn();
    for (const [client_, id] of [[client, viaApi.actionId], [other.client, refused.actionId]] as const) {
      const res = await client_.get(`/console/servers/${client_ === client ? g.id : other.g.id}/moderation/actions/${id}`);
      expect([res.status, errorCodeOf(res)]).toEqual([404, 'ACTION_NOT_FOUND']);
    }
    const malformed = await client.get(`${actions}/not-an-id`);
    expect([malformed.status, errorCodeOf(malformed)]).toEqual([404, 'PAGE_NOT_FOUND']);
  });

  it('refuses the action of a manager whose role was taken since the form was shown 403 NOT_A_SERVER_MANAGER, changing nothing', async () => {
    const { g, managerId, client, actions } = await signedIn();
    const target = g.addMember();
    await client.get(`${actions}/new`);
    fake.state.guilds.get(g.id)!.members.get(managerId)!.roles = [];
    const before = await state(g.id, target);
    for (const action of ['warn', 'ban']) {
      const res = await client.post(actions, { 'mod-action': action, 'mod-member': target, 'mod-reason': 'x' });
      expect([action, res.status, errorCodeOf(res)]).toEqual([action, 403, 'NOT_A_SERVER_MANAGER']);
    }
    expect(await state(g.id, target)).toEqual(before);
  });

  it('shows the FeatureOff page while Moderation is off and refuses its actions 409 FEATURE_DISABLED, changing nothing', async () => {
    const { g, client, path, actions } = await signedIn();
    const target = g.addMember();
    await client.get(`${actions}/new`);
    await featureOff(db(), g.id, 'moderation');
    expect((await client.get(path)).text).toContain('data-feature-off="moderation"');
    const before = await state(g.id, target);
    for (const page of [`${actions}/new`, `${path}/cases/1`]) expect(errorCodeOf(await client.get(page))).toBe('FEATURE_DISABLED');
    const res = await client.post(actions, { 'mod-action': 'warn', 'mod-member': target, 'mod-reason': 'x' });
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await state(g.id, target)).toEqual(before);
  });
});
