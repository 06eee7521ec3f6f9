import { describe, expect, it } from 'vitest';
import { findGiveaway } from '../../db/giveaways/giveaways.js';
import { utcInputValue } from '../../api/console/views/giveawayFields.js';
import { eventually } from '../harness/eventually.js';
import { bearer } from '../harness/fixtures.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { useGiveawayConsole } from './giveawayConsoleBed.js';
import { featureOff } from './ticketBed.js';

const { db, app, fake, clock, signedIn, giveawayRow, enter } = await useGiveawayConsole();

const MINUTE = 60_000;
const at = (ms: number) => utcInputValue(new Date(clock.now().getTime() + ms));
const idsOn = (html: string) => [...html.matchAll(/data-giveaway="(\d+)"/g)].map((m) => Number(m[1]));
const messagesIn = (channelId: string) => [...fake.state.messages.values()].filter((m) => m.channel_id === channelId);
const state = async (guildId: string) => ({
  giveaways: await db().selectFrom('giveaways').select(['id', 'status', 'winner_ids', 'ended_at']).where('guild_id', '=', guildId).orderBy('id').execute(),
  draws: await db().selectFrom('giveaway_draws').select(['giveaway_id', 'draw_number']).where('guild_id', '=', guildId).execute(),
  audit: await db().selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
  messages: [...fake.state.messages.values()].filter((m) => fake.state.guilds.get(guildId)!.channels.has(m.channel_id)).length,
});
/** Every bot action of the giveaway done or failed: nothing the workflow still has to send. */
const settled = (guildId: string, id: number) =>
  eventually(
    () => db().selectFrom('giveaway_actions').select('status').where('guild_id', '=', guildId).where('giveaway_id', '=', id).execute(),
    (rows) => rows.length > 0 && rows.every((r) => r.status !== 'queued'),
  );

/** The start form's fields, valid unless `change` says otherwise. */
const startFields = (channelId: string, change: Record<string, string | string[]> = {}) => ({
  'giveaway-channel': channelId,
  'giveaway-prize': 'Nitro',
  'giveaway-winners': '1',
  'giveaway-ends-at': at(60 * MINUTE),
  ...change,
});

describe('giveaways in the dashboard', () => {
  it('starts a giveaway through the API use case: the workflow posts it on Discord, the console user hosts it and is audited', async () => {
    const { guild, managerId, client, path } = await signedIn();
    const empty = await client.get(path);
    expect(empty.text).toContain('data-empty="giveaways"');
    const form = await client.get(`${path}/new`);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`<option value="${guild.channels.general}">#general</option>`);
    expect(form.text).toContain(`it is now ${utcInputValue(clock.now()).replace('T', ' ')} UTC`);

    const res = await client.post(
      path,
      startFields(guild.channels.general, {
        'giveaway-prize': 'Nitro for a year',
        'giveaway-winners': '2',
        'giveaway-roles': guild.roles.member,
        'giveaway-blocked-roles': guild.roles.reward,
        'giveaway-min-level': '0',
        'giveaway-account-age': '30',
        [`giveaway-bonus-${guild.roles.moderator}`]: '3',
      }),
    );
    const id = Number(/\/giveaways\/(\d+)$/.exec(res.headers.location ?? '')?.[1]);
    expect([res.status, res.headers.location]).toEqual([303, `${path}/${id}`]);
    const stored = await findGiveaway(db(), guild.id, id);
    expect(stored).toMatchObject({ prize: 'Nitro for a year', winnersCount: 2, hostId: managerId, channelId: guild.channels.general, startsAt: clock.now() });
    expect(stored!.endsAt.toISOString()).toBe(`${at(60 * MINUTE)}:00.000Z`);
    expect(stored!.requirements).toEqual({
      roleIds: [guild.roles.member],
      roleMode: 'any',
      blockedRoleIds: [guild.roles.reward],
      minAccountAgeDays: 30,
      minMemberDays: 0,
      minLevel: 0,
      entryCost: 0,
      bonusRoles: [{ roleId: guild.roles.moderator, entries: 3 }],
    });
    const audit = await db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'target_id']).where('guild_id', '=', guild.id).where('action', '=', 'giveaways.start').execute();
    expect(audit).toEqual([{ actor_type: 'console_user', actor_id: managerId, target_id: String(id) }]);

    // The workflow posts the message on Discord with its Enter button; the page then links it.
    const active = await eventually(() => findGiveaway(db(), guild.id, id), (g) => g?.status === 'active');
    const [post] = messagesIn(guild.channels.general);
    expect(post).toMatchObject({ embeds: [{ title: 'Nitro for a year' }], components: [{ components: [{ custom_id: `giveaway:enter:${id}` }] }] });
    expect(active!.messageUrl).toContain(post!.id);
    const page = await client.get(`${path}/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<dt>Host</dt><dd>boss</dd>');
    expect(page.text).toContain('#general');
    expect(page.text).toContain('data-empty="entrants"');
    expect(page.text).toContain('<li>One of @Member</li><li>None of @Level 2</li><li>An account at least 30 days old</li><li>3 entries with @Moderator</li>');
    expect(page.text).toContain('End now and draw the winners');
  });

  it('lists giveaways by status, page by page, and a giveaway with its entrants by name, page by page', async () => {
    const { guild, client, path } = await signedIn();
    const ended = [];
    for (let i = 0; i < 26; i++) ended.push(await giveawayRow(guild.id, guild.channels.general, `Prize ${i}`));
    const cancelled = await giveawayRow(guild.id, guild.channels.general, 'Gone', 'cancelled');
    const list = await client.get(path);
    expect(idsOn(list.text)).toHaveLength(25);
    const next = /href="([^"]*page=2[^"]*)"/.exec(list.text)![1]!.replaceAll('&amp;', '&');
    expect(idsOn((await client.get(next)).text)).toHaveLength(2);
    expect(idsOn((await client.get(`${path}?status=cancelled`)).text)).toEqual([cancelled]);
    expect((await client.get(`${path}?status=active`)).text).toContain('No giveaway has this status.');
    for (const query of ['status=maybe', 'page=0', 'page=10001', 'page=x']) {
      const bad = await client.get(`${path}?${query}`);
      expect([query, bad.status, errorCodeOf(bad)]).toEqual([query, 400, 'INVALID_INPUT']);
    }

    await client.get(`${path}/new`);
    const started = await client.post(path, startFields(guild.channels.general));
    const id = Number(started.headers.location!.split('/').at(-1));
    await eventually(() => findGiveaway(db(), guild.id, id), (g) => g?.status === 'active');
    const members = Array.from({ length: 26 }, () => guild.addMember());
    for (const userId of members) await enter(guild.id, id, userId);
    const page = await client.get(`${path}/${id}`);
    expect([...page.text.matchAll(/data-entrant="(\d+)"/g)].map((m) => m[1])).toEqual(members.slice(0, 25));
    expect(page.text).toContain(`<td>user${members[0]!.slice(-4)}</td>`);
    const more = await client.get(`${path}/${id}?page=2`);
    expect([...more.text.matchAll(/data-entrant="(\d+)"/g)].map((m) => m[1])).toEqual([members[25]]);
    const missing = await client.get(`${path}/999999`);
    expect([missing.status, errorCodeOf(missing)]).toEqual([404, 'GIVEAWAY_NOT_FOUND']);
  });

  it.each([
    ['no prize', { 'giveaway-prize': ' ' }, 'giveaway-prize', 'Give a prize of 1 to 200 characters, without control characters.'],
    ['a prize of 201 characters', { 'giveaway-prize': 'p'.repeat(201) }, 'giveaway-prize', 'Give a prize of 1 to 200 characters, without control characters.'],
    ['a description of 1,001 characters', { 'giveaway-description': 'd'.repeat(1001) }, 'giveaway-description', 'Give a description of up to 1,000 characters, without control characters.'],
    ['0 winners', { 'giveaway-winners': '0' }, 'giveaway-winners', 'Give a whole number of winners from 1 to 50.'],
    ['51 winners', { 'giveaway-winners': '51' }, 'giveaway-winners', 'Give a whole number of winners from 1 to 50.'],
    ['winners that are no number', { 'giveaway-winners': '1.5' }, 'giveaway-winners', 'Give a whole number of winners from 1 to 50.'],
    ['no channel', { 'giveaway-channel': '' }, 'giveaway-channel', 'Pick a text or announcement channel of this server.'],
    ['an end that is no date', { 'giveaway-ends-at': 'tomorrow' }, 'giveaway-ends-at', 'Give the end as a date and time in UTC, like 2026-12-01T18:00.'],
    ['an end on 30 February', { 'giveaway-ends-at': '2027-02-30T10:00' }, 'giveaway-ends-at', 'Give the end as a date and time in UTC, like 2026-12-01T18:00.'],
    ['a required role of no server', { 'giveaway-roles': '100000000000000001' }, 'giveaway-roles', 'Pick up to 20 roles of this server.'],
    ['a role mode of neither', { 'giveaway-role-mode': 'some' }, 'giveaway-role-mode', 'Choose whether one required role is enough or every one is needed.'],
    ['an account age of 3,651 days', { 'giveaway-account-age': '3651' }, 'giveaway-account-age', 'Give a whole number of days from 0 to 3,650.'],
    ['negative days in the server', { 'giveaway-member-days': '-1' }, 'giveaway-member-days', 'Give a whole number of days from 0 to 3,650.'],
    ['level 1,001', { 'giveaway-min-level': '1001' }, 'giveaway-min-level', 'Give a whole number from 0 to 1,000.'],
    ['an entry cost above 1,000,000,000', { 'giveaway-entry-cost': '1000000001' }, 'giveaway-entry-cost', 'Give a whole number from 0 to 1,000,000,000.'],
  ])('keeps %s on the start form (400 INVALID_INPUT, the field named) and starts nothing', async (_, change, field, message) => {
    const { guild, client, path } = await signedIn();
    await client.get(`${path}/new`);
    const before = await state(guild.id);
    const res = await client.post(path, startFields(guild.channels.general, change));
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, field)).toBe(message);
    expect(res.text).toContain('<title>Error: Start a giveaway');
    expect(await state(guild.id)).toEqual(before);
  });

  it('refuses 11 bonus entries (400 on the bonus field) and a role given 1; the schedule and channel refusals are 422 with their codes', async () => {
    const { guild, client, path } = await signedIn();
    await client.get(`${path}/new`);
    const before = await state(guild.id);
    const cases: Array<[Record<string, string>, number, string, string, string]> = [
      [{ [`giveaway-bonus-${guild.roles.member}`]: '11' }, 400, 'INVALID_INPUT', 'giveaway-bonus', 'Give 2 to 10 entries, to at most 10 roles.'],
      [{ [`giveaway-bonus-${guild.roles.member}`]: '1' }, 400, 'INVALID_INPUT', 'giveaway-bonus', 'Give 2 to 10 entries, to at most 10 roles.'],
      [{ 'giveaway-ends-at': at(-MINUTE) }, 422, 'INVALID_SCHEDULE', 'giveaway-ends-at', `This time has passed: it is now ${utcInputValue(clock.now()).replace('T', ' ')} UTC.`],
      [{ 'giveaway-ends-at': new Date(clock.now().getTime() + 59_000).toISOString().slice(0, 19) }, 422, 'INVALID_SCHEDULE', 'giveaway-ends-at', 'End the giveaway at least 1 minute from now.'],
      [{ 'giveaway-ends-at': at(61 * 86_400_000) }, 422, 'INVALID_SCHEDULE', 'giveaway-ends-at', 'End the giveaway at most 60 days from now.'],
      [{ 'giveaway-channel': guild.roles.member }, 422, 'INVALID_CHANNEL', 'giveaway-channel', 'This channel is not a text or announcement channel of this server (any more): pick another.'],
    ];
    for (const [change, status, code, field, message] of cases) {
      const res = await client.post(path, startFields(guild.channels.general, change));
      expect([res.status, errorCodeOf(res), fieldErrorOf(res.text, field)]).toEqual([status, code, message]);
    }
    expect(await state(guild.id)).toEqual(before);
  });

  it('ends a giveaway after its confirmation page through the workflow, then rerolls it: winners drawn, Discord told, the console user audited', async () => {
    const { guild, managerId, client, path } = await signedIn();
    await client.get(`${path}/new`);
    const id = Number((await client.post(path, startFields(guild.channels.general))).headers.location!.split('/').at(-1));
    await eventually(() => findGiveaway(db(), guild.id, id), (g) => g?.status === 'active');
    const members = [guild.addMember(), guild.addMember(), guild.addMember()];
    for (const userId of members) await enter(guild.id, id, userId);

    const confirm = await client.get(`${path}/${id}/end`);
    expect(confirm.text).toContain('End the giveaway</button>');
    expect(confirm.text).toContain('among its 3 entrants');
    const ended = await client.post(`${path}/${id}/end`);
    expect([ended.status, ended.headers.location]).toEqual([303, `${path}/${id}`]);
    const drawn = (await findGiveaway(db(), guild.id, id))!;
    expect(drawn.status).toBe('ended');
    expect(drawn.winnerIds).toHaveLength(1);
    expect(members).toContain(drawn.winnerIds[0]);
    await settled(guild.id, id);
    const channelMessages = messagesIn(guild.channels.general);
    expect(channelMessages.some((m) => m.content.includes(`<@${drawn.winnerIds[0]}>`))).toBe(true);
    const audit = async (action: string) =>
      db().selectFrom('audit_log').select(['actor_type', 'actor_id']).where('guild_id', '=', guild.id).where('action', '=', action).execute();
    expect(await audit('giveaways.end')).toEqual([{ actor_type: 'console_user', actor_id: managerId }]);
    const page = await client.get(`${path}/${id}`);
    expect(page.text).toContain('data-draw="1"');
    expect(page.text).toContain('Reroll winners');

    const reroll = await client.get(`${path}/${id}/reroll`);
    expect(reroll.text).toContain(`value="${drawn.winnerIds[0]}" checked`);
    const rerolled = await client.post(`${path}/${id}/reroll`, { 'reroll-replace': drawn.winnerIds[0]! });
    expect([rerolled.status, rerolled.headers.location]).toEqual([303, `${path}/${id}`]);
    const after = (await findGiveaway(db(), guild.id, id))!;
    expect(after.winnerIds).toHaveLength(1);
    expect(after.winnerIds[0]).not.toBe(drawn.winnerIds[0]);
    expect(members).toContain(after.winnerIds[0]);
    await settled(guild.id, id);
    expect(messagesIn(guild.channels.general).some((m) => m.content.includes(`<@${after.winnerIds[0]}>`))).toBe(true);
    expect(await audit('giveaways.reroll')).toEqual([{ actor_type: 'console_user', actor_id: managerId }]);
    const draws = await db().selectFrom('giveaway_draws').select(['draw_number', 'kind', 'replaced_user_ids']).where('guild_id', '=', guild.id).orderBy('draw_number').execute();
    expect(draws).toEqual([
      { draw_number: 1, kind: 'end', replaced_user_ids: [] },
      { draw_number: 2, kind: 'reroll', replaced_user_ids: drawn.winnerIds },
    ]);
  });

  it('refuses an end the API already made 409 GIVEAWAY_NOT_ACTIVE, and bad rerolls on their fields, changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    await client.get(`${path}/new`);
    const id = Number((await client.post(path, startFields(guild.channels.general))).headers.location!.split('/').at(-1));
    await eventually(() => findGiveaway(db(), guild.id, id), (g) => g?.status === 'active');
    for (const userId of [guild.addMember(), guild.addMember(), guild.addMember()]) await enter(guild.id, id, userId);
    await client.get(`${path}/${id}/end`);
    expect((await app.http('POST', `/guilds/${guild.id}/giveaways/${id}/end`, { headers: bearer(guild.key) })).status).toBe(200);
    await settled(guild.id, id);
    const { winnerIds } = (await findGiveaway(db(), guild.id, id))!;
    await client.get(`${path}/${id}/reroll`);
    const before = await state(guild.id);

    const late = await client.post(`${path}/${id}/end`);
    expect([late.status, errorCodeOf(late)]).toEqual([409, 'GIVEAWAY_NOT_ACTIVE']);
    expect((await client.get(`${path}/${id}/end`)).text).toContain('data-not-now');
    const cases: Array<[Record<string, string>, number, string, string, string]> = [
      [{ 'reroll-count': 'two' }, 400, 'INVALID_INPUT', 'reroll-count', 'Give a whole number of new winners from 1 to 50, or leave it empty.'],
      [{ 'reroll-count': '51' }, 400, 'INVALID_INPUT', 'reroll-count', 'Give a whole number of new winners from 1 to 50, or leave it empty.'],
      [{ 'reroll-replace': 'nobody' }, 400, 'INVALID_INPUT', 'reroll-replace', 'Tick winners of this giveaway only.'],
      [{ 'reroll-replace': guild.ownerId }, 422, 'NOT_A_WINNER', 'reroll-replace', `Not among the current winners: ${guild.ownerId}. Reload the page: the winners changed.`],
      [{}, 422, 'TOO_MANY_WINNERS', 'reroll-replace', 'Every place is taken: tick the winners to replace.'],
      [{ 'reroll-replace': winnerIds[0]!, 'reroll-count': '2' }, 422, 'TOO_MANY_WINNERS', 'reroll-count', 'The giveaway has 1 winner at most: this reroll may draw 1 to 1, not 2.'],
    ];
    for (const [fields, status, code, field, message] of cases) {
      const res = await client.post(`${path}/${id}/reroll`, fields);
      expect([res.status, errorCodeOf(res), fieldErrorOf(res.text, field)]).toEqual([status, code, message]);
    }
    expect(await state(guild.id)).toEqual(before);
  });

  it('shows the FeatureOff page while Giveaways is off and refuses its actions 409 FEATURE_DISABLED, changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    await client.get(`${path}/new`);
    await featureOff(db(), guild.id, 'giveaways');
    const before = await state(guild.id);
    expect((await client.get(path)).text).toContain('data-feature-off="giveaways"');
    const res = await client.post(path, startFields(guild.channels.general));
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await state(guild.id)).toEqual(before);
  });
});
