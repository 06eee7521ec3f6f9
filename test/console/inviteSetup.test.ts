import { afterAll, describe, expect, it } from 'vitest';
import { addInviteMilestone } from '../../db/invites/milestones.js';
import { startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { startInviteSeason } from '../../src/invites/seasons.js';
import { useTestDatabase } from '../harness/database.js';
import { discordPlatformOn } from '../harness/discordGuild.js';
import { useTestApp } from '../harness/testApp.js';
import { fieldErrorOf } from './consoleClient.js';
import { invitesConsole, problemOf } from './invitesBed.js';

// Seasons and milestone rewards from the dashboard: the admin CLI's use cases, no workflow, so no worker (the
// leaderboard, bonuses and milestone roles given on Discord: invites.test.ts).
const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const database = useTestDatabase();
const db = () => database.db;
const app = useTestApp(db, { deps: { platform }, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });
const { signedIn, consoleAudit, state } = invitesConsole(db, app, fake);

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
