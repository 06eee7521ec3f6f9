import { afterAll, describe, expect, it } from 'vitest';
import { upsertPlatformMember } from '../../db/platform/local.js';
import { addMember, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { addInviteMilestone } from '../../db/invites/milestones.js';
import { startInviteSeason } from '../../src/invites/seasons.js';
import { createDiscordGuild, discordPlatformOn } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { snowflake } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { consoleClient } from './consoleClient.js';
import { featureOff } from './ticketBed.js';

// PLATFORM=discord on the fake Discord, with a real worker: a bonus from the dashboard that crosses a milestone must
// give its role on Discord exactly as the API's bonus does (test/workflows/discordStepRefusals.test.ts).
const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform }, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });

async function signedIn() {
  const g = await createDiscordGuild(db(), fake);
  const managerId = snowflake();
  addMember(fake.state, fake.state.guilds.get(g.id)!, { id: managerId, username: 'boss', roles: [g.roles.admin] });
  // The development sign-in offers the local platform's people; the manager rule is then asked of Discord.
  await upsertPlatformMember(db(), { guildId: g.id, userId: managerId, username: 'boss', bot: false, roleIds: [] });
  const client = consoleClient(app.baseUrl);
  await client.signIn(managerId);
  const member = (username: string) => {
    const id = snowflake();
    addMember(fake.state, fake.state.guilds.get(g.id)!, { id, username, roles: [g.roles.member] });
    return id;
  };
  return { g, managerId, client, member, path: `/console/servers/${g.id}/invites` };
}

const fieldErrorOf = (html: string, field: string) => new RegExp(`id="${field}-error"[^>]*>.*?</span>([^<]*)`, 's').exec(html)?.[1]?.trim();
const problemOf = (res: { status: number; text: string }) => [res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]];
const ranksOn = (html: string) => [...html.matchAll(/data-rank="(\d+)"/g)].map((m) => Number(m[1]));
const consoleAudit = (guildId: string) =>
  db()
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', 'action', 'target_id', 'data'])
    .where('guild_id', '=', guildId)
    .where('actor_type', '=', 'console_user')
    .where('action', '!=', 'console.signIn')
    .orderBy('id')
    .execute();
const state = async (guildId: string) => ({
  members: await db().selectFrom('invite_members').select(['user_id', 'bonus', 'invites']).where('guild_id', '=', guildId).orderBy('user_id').execute(),
  seasons: await db().selectFrom('invite_seasons').select(['number', 'name', 'ended_at']).where('guild_id', '=', guildId).orderBy('number').execute(),
  milestones: await db().selectFrom('invite_milestones').select(['invites', 'role_id']).where('guild_id', '=', guildId).orderBy('invites').execute(),
  checks: await db().selectFrom('invite_milestone_checks').select('id').where('guild_id', '=', guildId).execute(),
  audit: await db().selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
});
const giveBonus = (guildId: string, userId: string, bonus: number) =>
  db().insertInto('invite_members').values({ guild_id: guildId, user_id: userId, bonus, updated_at: new Date() }).execute();

describe('the invites leaderboard and a member', () => {
  it('ranks members by name, 25 a page, all time or the current season; the lookup goes to a member', async () => {
    const { g, client, member, path } = await signedIn();
    const top = member('top-inviter');
    await giveBonus(g.id, top, 500);
    for (let i = 0; i < 26; i++) await giveBonus(g.id, snowflake(), 10 + i);
    const page = await client.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(new RegExp(`<tr data-rank="1"><td>1</td><td><a href="${path}/members/${top}">top-inviter</a></td><td>500</td>`));
    expect(ranksOn(page.text)).toHaveLength(25);
    expect(page.text).toContain('data-season="none"');
    expect(page.text).toContain(`href="${path}?cursor=25"`);
    expect(ranksOn((await client.get(`${path}?cursor=25`)).text)).toEqual([26, 27]);
    // No season: the season's board says how to start one.
    expect((await client.get(`${path}?period=season`)).text).toContain('data-empty="leaderboard"');
    await db().transaction().execute((trx) => startInviteSeason(trx, { guildId: g.id, name: 'Spring', at: new Date(), actor: { type: 'system' } }));
    await db().insertInto('invite_season_members').values({ season_id: (await db().selectFrom('invite_seasons').select('id').where('guild_id', '=', g.id).executeTakeFirstOrThrow()).id, user_id: top, verified: 0, bonus: 7 }).execute();
    const season = await client.get(`${path}?period=season`);
    expect(season.text).toContain('data-season="1"');
    expect(season.text).toMatch(/>top-inviter<\/a><\/td><td>7<\/td>/);
    expect(ranksOn(season.text)).toEqual([1]);

    for (const bad of ['?cursor=x', '?period=week']) expect(problemOf(await client.get(`${path}${bad}`))).toEqual([400, 'INVALID_INPUT']);
    const found = await client.get(`${path}/members?member-id=${top}`);
    expect([found.status, found.headers.location]).toEqual([303, `${path}/members/${top}`]);
    const byName = await client.get(`${path}/members?member-q=TOP-INV`);
    expect(byName.status).toBe(200);
    expect(byName.text).toContain(`<a href="${path}/members/${top}">top-inviter</a> <small class="muted">${top}</small>`);
    const notId = await client.get(`${path}/members?member-id=alice`);
    expect(problemOf(notId)).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(notId.text, 'member-id')).toBe('Give a user id: 17 to 20 digits.');
    const empty = await client.get(`${path}/members?member-q=`);
    expect(problemOf(empty)).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(empty.text, 'member-q')).toBe("Type the start of a member's name: 1 to 32 characters.");
    expect(problemOf(await client.get(`${path}/members/alice`))).toEqual([404, 'PAGE_NOT_FOUND']);
  });

  it("shows a member's invites as the API gives them, zeros for one who invited nobody", async () => {
    const { g, client, member, path } = await signedIn();
    const ada = member('ada');
    await db().insertInto('invite_members').values({ guild_id: g.id, user_id: ada, verified: 4, pending: 2, left: 1, fake: 3, bonus: -1, total: 10, updated_at: new Date() }).execute();
    const page = await client.get(`${path}/members/${ada}`);
    expect(page.text).toContain('<title>Invites of ada · Community Bot console</title>');
    expect(page.text).toContain('<dd data-invites="true">3</dd>');
    expect(page.text).toContain('<dd data-bonus="true">-1</dd>');
    expect(page.text).toContain('<dt>Fake</dt><dd>3</dd>');
    expect(page.text).toContain('<dd data-season-invites="true">No season is running.</dd>');
    expect((await client.get(`${path}/members/${member('nobody')}`)).text).toContain('<dd data-invites="true">0</dd>');
  });
});

describe('bonus invites from the dashboard', () => {
  it("adds them through the API's use case, audited with the console user; crossing a milestone gives its role on Discord", async () => {
    const { g, managerId, client, member, path } = await signedIn();
    const ada = member('ada');
    await addInviteMilestone(db(), g.id, { invites: 3, roleId: g.roles.reward });
    await db().transaction().execute((trx) => startInviteSeason(trx, { guildId: g.id, name: null, at: new Date(), actor: { type: 'system' } }));
    await client.get(`${path}/members/${ada}`);
    const res = await client.post(`${path}/members/${ada}/bonus`, { 'bonus-amount': '5', 'bonus-reason': 'Event winner' });
    expect([res.status, res.headers.location]).toEqual([303, `${path}/members/${ada}`]);
    expect((await state(g.id)).members).toEqual([{ user_id: ada, bonus: 5, invites: 5 }]);
    const [audit] = await consoleAudit(g.id);
    expect(audit).toMatchObject({ actor_type: 'console_user', actor_id: managerId, action: 'invites.bonus', target_id: ada, data: { amount: 5, reason: 'Event winner', previousBonus: 0, bonus: 5 } });
    // The grant is recorded once the role is given (the workflow's step): then the role is on Discord.
    const grants = await eventually(
      () => db().selectFrom('invite_milestone_grants').select(['role_id', 'invites']).where('guild_id', '=', g.id).execute(),
      (rows) => rows.length > 0,
    );
    expect(grants).toEqual([{ role_id: g.roles.reward, invites: 3 }]);
    expect(fake.state.guilds.get(g.id)!.members.get(ada)!.roles).toEqual([g.roles.member, g.roles.reward]);
    expect(fake.requests.filter((r) => r.method === 'PUT' && r.path === `/guilds/${g.id}/members/${ada}/roles/${g.roles.reward}`).map((r) => r.status)).toEqual([204]);
    const page = await client.get(`${path}/members/${ada}`);
    expect(page.text).toContain('<dd data-season-invites="true">5 invites, rank 1 (season 1)</dd>');

    // A removal (negative) reaches no milestone: no check.
    await client.get(`${path}/members/${ada}`);
    expect((await client.post(`${path}/members/${ada}/bonus`, { 'bonus-amount': '-2' })).status).toBe(303);
    expect((await state(g.id)).members).toEqual([{ user_id: ada, bonus: 3, invites: 3 }]);
    expect((await state(g.id)).checks).toHaveLength(1);
  });

  it.each([
    ['no amount', { 'bonus-amount': '' }, 'bonus-amount', 'Give a whole number from -100,000 to 100,000.'],
    ['a word', { 'bonus-amount': 'ten' }, 'bonus-amount', 'Give a whole number from -100,000 to 100,000.'],
    ['a fraction', { 'bonus-amount': '1.5' }, 'bonus-amount', 'Give a whole number from -100,000 to 100,000.'],
    ['100,001', { 'bonus-amount': '100001' }, 'bonus-amount', 'Give a whole number from -100,000 to 100,000.'],
    ['a reason of 201 characters', { 'bonus-amount': '1', 'bonus-reason': 'x'.repeat(201) }, 'bonus-reason', 'Give a reason of at most 200 characters, without control characters.'],
  ])('keeps %s on the form (400 INVALID_INPUT, the field named) and changes nothing', async (_, fields, field, message) => {
    const { g, client, member, path } = await signedIn();
    const ada = member('ada');
    await client.get(`${path}/members/${ada}`);
    const before = await state(g.id);
    const res = await client.post(`${path}/members/${ada}/bonus`, fields);
    expect(problemOf(res)).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, field)).toBe(message);
    if (fields['bonus-amount']) expect(res.text).toContain(`value="${fields['bonus-amount']}"`);
    expect(await state(g.id)).toEqual(before);
  });

  it('refuses a user who is not in the server 404 MEMBER_NOT_FOUND and a bot 422 BOT_ACCOUNT, as the API does, changing nothing', async () => {
    const { g, client, path } = await signedIn();
    const gone = snowflake();
    const before = await state(g.id);
    for (const [userId, status, code] of [[gone, 404, 'MEMBER_NOT_FOUND'], [fake.state.bot.id, 422, 'BOT_ACCOUNT']] as const) {
      await client.get(`${path}/members/${userId}`);
      const res = await client.post(`${path}/members/${userId}/bonus`, { 'bonus-amount': '5' });
      expect(problemOf(res)).toEqual([status, code]);
      expect(res.text).toContain('Give the bonus');
    }
    expect(await state(g.id)).toEqual(before);
  });
});

describe('invite seasons from the dashboard', () => {
  it("starts, ends and resets seasons through the CLI's use cases, behind a confirmation, audited with the console user", async () => {
    const { g, managerId, client, path } = await signedIn();
    const seasons = `${path}/seasons`;
    const empty = await client.get(seasons);
    expect(empty.text).toContain('data-empty="seasons"');
    expect(empty.text).toContain(`href="${seasons}/new"`);
    expect(problemOf(await client.get(`${seasons}/end`))).toEqual([409, 'NO_ACTIVE_SEASON']);
    await client.get(`${seasons}/new`);
    const started = await client.post(seasons, { 'season-name': 'Spring' });
    expect([started.status, started.headers.location]).toEqual([303, seasons]);
    const list = await client.get(seasons);
    expect(list.text).toContain('data-active-season="1"');
    expect(list.text).toContain(`href="${seasons}/end"`);

    const confirm = await client.get(`${seasons}/end`);
    expect(confirm.text).toContain('<title>End Season 1 (Spring)? · Community Bot console</title>');
    expect((await client.post(`${seasons}/end`, { 'season-restart': 'on', 'season-next-name': 'Summer' })).status).toBe(303);
    await client.get(`${seasons}/end`);
    expect((await client.post(`${seasons}/end`)).status).toBe(303);
    const after = await state(g.id);
    expect(after.seasons.map((s) => [s.number, s.name, s.ended_at !== null])).toEqual([
      [1, 'Spring', true],
      [2, 'Summer', true],
    ]);
    expect((await consoleAudit(g.id)).map((a) => [a.actor_id, a.action, a.target_id])).toEqual([
      [managerId, 'invites.seasonStart', '1'],
      [managerId, 'invites.seasonEnd', '1'],
      [managerId, 'invites.seasonStart', '2'],
      [managerId, 'invites.seasonEnd', '2'],
    ]);
    expect([...(await client.get(seasons)).text.matchAll(/<tr data-season="(\d+)">/g)].map((m) => m[1])).toEqual(['2', '1']);
  });

  it('keeps a name too long on the form (400, field named), and refuses a start while a season runs 409 SEASON_ACTIVE, changing nothing', async () => {
    const { g, client, path } = await signedIn();
    const seasons = `${path}/seasons`;
    await client.get(`${seasons}/new`);
    const before = await state(g.id);
    const long = await client.post(seasons, { 'season-name': 'x'.repeat(101) });
    expect(problemOf(long)).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(long.text, 'season-name')).toBe('Give a name of at most 100 characters, without control characters.');
    expect(await state(g.id)).toEqual(before);
    // Another manager started one since this page opened.
    await db().transaction().execute((trx) => startInviteSeason(trx, { guildId: g.id, name: null, at: new Date(), actor: { type: 'system' } }));
    const running = await state(g.id);
    const refused = await client.post(seasons, { 'season-name': 'Mine' });
    expect(problemOf(refused)).toEqual([409, 'SEASON_ACTIVE']);
    expect(refused.text).toContain('value="Mine"');
    await client.get(`${seasons}/end`);
    const badNext = await client.post(`${seasons}/end`, { 'season-restart': 'on', 'season-next-name': 'y'.repeat(101) });
    expect(problemOf(badNext)).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(badNext.text, 'season-next-name')).toBe('Give a name of at most 100 characters, without control characters.');
    expect(await state(g.id)).toEqual(running);
  });
});

describe('invite milestone rewards from the dashboard', () => {
  it("adds, edits and removes milestones through the CLI's use case, roles by name, audited with the console user", async () => {
    const { g, managerId, client, path } = await signedIn();
    const milestones = `${path}/milestones`;
    const empty = await client.get(milestones);
    expect(empty.text).toContain('data-empty="milestones"');
    expect(empty.text).toContain('>@Level 2</option>');
    expect(empty.text).not.toContain('>@Bot</option>');
    expect([(await client.post(milestones, { 'milestone-invites': '10', 'milestone-role': g.roles.reward })).status]).toEqual([303]);
    const list = await client.get(milestones);
    expect(list.text).toMatch(new RegExp(`<tr data-milestone="10-${g.roles.reward}"><td>10</td><td>@Level 2</td>`));

    const one = `${milestones}/10/${g.roles.reward}`;
    expect((await client.get(`${one}/edit`)).text).toContain('value="10"');
    expect((await client.post(`${one}/edit`, { 'milestone-invites': '20', 'milestone-role': g.roles.member })).status).toBe(303);
    expect((await state(g.id)).milestones).toEqual([{ invites: 20, role_id: g.roles.member }]);
    const moved = `${milestones}/20/${g.roles.member}`;
    expect((await client.get(`${moved}/remove`)).text).toContain('Remove the milestone at 20 invites?');
    expect((await client.post(`${moved}/remove`)).status).toBe(303);
    expect((await state(g.id)).milestones).toEqual([]);
    expect((await consoleAudit(g.id)).map((a) => [a.actor_id, a.action, a.target_id, a.data])).toEqual([
      [managerId, 'invites.milestoneAdd', g.roles.reward, { invites: 10 }],
      [managerId, 'invites.milestoneRemove', g.roles.reward, { invites: 10 }],
      [managerId, 'invites.milestoneAdd', g.roles.member, { invites: 20 }],
      [managerId, 'invites.milestoneRemove', g.roles.member, { invites: 20 }],
    ]);
    expect(problemOf(await client.get(`${moved}/edit`))).toEqual([404, 'MILESTONE_NOT_FOUND']);
  });

  it.each([
    ['no count', { 'milestone-invites': '', 'milestone-role': 'REWARD' }, 'milestone-invites', 'Give a whole number of invites from 1 to 1,000,000.'],
    ['zero invites', { 'milestone-invites': '0', 'milestone-role': 'REWARD' }, 'milestone-invites', 'Give a whole number of invites from 1 to 1,000,000.'],
    ['1,000,001 invites', { 'milestone-invites': '1000001', 'milestone-role': 'REWARD' }, 'milestone-invites', 'Give a whole number of invites from 1 to 1,000,000.'],
    ["the bot's own (managed) role", { 'milestone-invites': '5', 'milestone-role': 'BOT' }, 'milestone-role', 'Pick a role of this server the bot can give.'],
    ['a role of no server', { 'milestone-invites': '5', 'milestone-role': '100000000000000009' }, 'milestone-role', 'Pick a role of this server the bot can give.'],
  ])('keeps %s on the add and edit forms (400 INVALID_INPUT, the field named) and changes nothing', async (_, fields, field, message) => {
    const { g, client, path } = await signedIn();
    const milestones = `${path}/milestones`;
    await addInviteMilestone(db(), g.id, { invites: 50, roleId: g.roles.reward });
    const sent = { ...fields, 'milestone-role': fields['milestone-role'] === 'REWARD' ? g.roles.reward : fields['milestone-role'] === 'BOT' ? g.roles.bot : fields['milestone-role'] };
    const edit = `${milestones}/50/${g.roles.reward}/edit`;
    await client.get(milestones);
    await client.get(edit);
    const before = await state(g.id);
    for (const action of [milestones, edit]) {
      const res = await client.post(action, sent);
      expect(problemOf(res)).toEqual([400, 'INVALID_INPUT']);
      expect(fieldErrorOf(res.text, field)).toBe(message);
    }
    expect(await state(g.id)).toEqual(before);
  });

  it('refuses removing a milestone that is gone 404 MILESTONE_NOT_FOUND, changing nothing', async () => {
    const { g, client, path } = await signedIn();
    await addInviteMilestone(db(), g.id, { invites: 5, roleId: g.roles.reward });
    const remove = `${path}/milestones/5/${g.roles.reward}/remove`;
    await client.get(remove);
    await db().deleteFrom('invite_milestones').where('guild_id', '=', g.id).execute();
    const before = await state(g.id);
    expect(problemOf(await client.post(remove))).toEqual([404, 'MILESTONE_NOT_FOUND']);
    expect(await state(g.id)).toEqual(before);
  });
});

describe('invites while the feature is off', () => {
  it('every page offers to turn Invites on instead, and every action is refused 409 FEATURE_DISABLED, changing nothing', async () => {
    const { g, client, member, path } = await signedIn();
    const ada = member('ada');
    await addInviteMilestone(db(), g.id, { invites: 5, roleId: g.roles.reward });
    const one = `${path}/milestones/5/${g.roles.reward}`;
    for (const page of [`${path}/members/${ada}`, `${path}/seasons/new`, path, `${one}/remove`]) await client.get(page);
    await featureOff(db(), g.id, 'invites');
    const before = await state(g.id);
    for (const page of [path, `${path}/members/${ada}`, `${path}/seasons`, `${path}/milestones`]) expect((await client.get(page)).text).toContain('data-feature-off="invites"');
    const actions: Array<[string, Record<string, string>]> = [
      [`${path}/members/${ada}/bonus`, { 'bonus-amount': '5' }],
      [`${path}/seasons`, {}],
      [`${one}/remove`, {}],
    ];
    for (const [action, fields] of actions) expect([action, ...problemOf(await client.post(action, fields))]).toEqual([action, 409, 'FEATURE_DISABLED']);
    expect(await state(g.id)).toEqual(before);
    const on = await client.post(`/console/servers/${g.id}/overview/features/invites`, { on: 'true', then: 'invites/seasons' });
    expect([on.status, on.headers.location]).toEqual([303, `${path}/seasons`]);
  });
});

describe('a manager whose permission was taken on Discord since the pages opened', () => {
  it('is refused 403 NOT_A_SERVER_MANAGER on every invites action (writes ask Discord afresh), changing nothing', async () => {
    const { g, managerId, client, member, path } = await signedIn();
    const ada = member('ada');
    await db().transaction().execute((trx) => startInviteSeason(trx, { guildId: g.id, name: null, at: new Date(), actor: { type: 'system' } }));
    await addInviteMilestone(db(), g.id, { invites: 5, roleId: g.roles.reward });
    const one = `${path}/milestones/5/${g.roles.reward}`;
    const actions: Array<[string, Record<string, string>]> = [
      [`${path}/members/${ada}/bonus`, { 'bonus-amount': '5' }],
      [`${path}/seasons`, { 'season-name': 'x' }],
      [`${path}/seasons/end`, {}],
      [`${path}/milestones`, { 'milestone-invites': '7', 'milestone-role': g.roles.reward }],
      [`${one}/edit`, { 'milestone-invites': '9', 'milestone-role': g.roles.reward }],
      [`${one}/remove`, {}],
    ];
    for (const page of [`${path}/members/${ada}`, `${path}/seasons/new`, `${path}/seasons/end`, `${path}/milestones`, `${one}/edit`, `${one}/remove`]) expect((await client.get(page)).status).toBe(200);
    fake.state.guilds.get(g.id)!.members.get(managerId)!.roles = [];
    const before = await state(g.id);
    for (const [action, fields] of actions) expect([action, ...problemOf(await client.post(action, fields))]).toEqual([action, 403, 'NOT_A_SERVER_MANAGER']);
    expect(await state(g.id)).toEqual(before);
  });
});
