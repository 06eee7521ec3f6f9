import { afterAll, describe, expect, it } from 'vitest';
import { addInviteMilestone } from '../../db/invites/milestones.js';
import { startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { startInviteSeason } from '../../src/invites/seasons.js';
import { discordPlatformOn } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { snowflake } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { fieldErrorOf } from './consoleClient.js';
import { invitesConsole, problemOf } from './invitesBed.js';
import { featureOff } from './ticketBed.js';

// PLATFORM=discord on the fake Discord, with a real worker: a bonus from the dashboard that crosses a milestone must
// give its role on Discord exactly as the API's bonus does (test/workflows/discordStepRefusals.test.ts). Seasons
// and milestone rewards, which need no worker: inviteSetup.test.ts.
const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform }, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const { signedIn, consoleAudit, state } = invitesConsole(db, app, fake);

const ranksOn = (html: string) => [...html.matchAll(/data-rank="(\d+)"/g)].map((m) => Number(m[1]));
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
