import { afterAll, describe, expect, it } from 'vitest';
import { addCaseEvent, insertCase, resolveCase } from '../../db/moderation/cases.js';
import { startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { discordPlatformOn } from '../harness/discordGuild.js';
import { newTestCase } from '../harness/modCases.js';
import { snowflake } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { casesOn, moderationConsole, reasonOf } from './moderationBed.js';

// Moderation from the dashboard on the fake Discord (moderationBed.ts): cases, and actions carried out by the same
// workflow as the API's (test/workflows/discordModeration.test.ts). The manager signs in with the development sign-in.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform }, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const { signedIn, dmsTo, state, finished } = moderationConsole(db, app, fake);

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

  it("pages a case's timeline 50 events at a time, the latest first, every event once, the case on every page; a bad cursor is 400", async () => {
    const { g, managerId, client, path } = await signedIn();
    const target = g.addMember();
    const { number } = await insertCase(db(), newTestCase(g.id, { action: 'timeout', userId: target, durationSeconds: 3_600, active: true }));
    // The case's `created` event and 104 more, the manager acting in the earliest ten.
    const steps = Array.from({ length: 104 }, (_, i) => ({ guild_id: g.id, case_number: number, type: `step_${i + 1}`, actor_id: i < 10 ? managerId : null, data: '{}', created_at: new Date('2026-05-01T11:00:00.000Z') }));
    await db().insertInto('moderation_case_events').values(steps).execute();

    const seen: string[][] = [];
    const pages: string[] = [];
    let next: string | undefined = `${path}/cases/${number}`;
    while (next) {
      const res = await client.get(next);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<title>Case #${number}: timeout · Community Bot console</title>`);
      expect(res.text).toContain('<dt>Duration</dt><dd>1 hour</dd>');
      expect(res.text).toContain(`href="${path}/actions/new?mod-member=${target}"`);
      seen.push([...res.text.matchAll(/<li data-event="([a-z_\d]+)">/g)].map((m) => m[1]!));
      pages.push(res.text);
      next = /href="([^"]+)" rel="next">Earlier events/.exec(res.text)?.[1]?.replaceAll('&amp;', '&');
    }
    const stepsFrom = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `step_${from + i}`);
    expect(seen).toEqual([stepsFrom(55, 104), stepsFrom(5, 54), ['created', ...stepsFrom(1, 4)]]);
    expect(pages[0]).not.toContain('by boss');
    expect(pages[1]).toContain('by boss');

    const before = await state(g.id, target);
    for (const bad of ['x', '-1', '1e3', '1234567890123456']) {
      const res = await client.get(`${path}/cases/${number}?before=${bad}`);
      expect([bad, res.status, errorCodeOf(res)]).toEqual([bad, 400, 'INVALID_INPUT']);
      expect(res.text).toContain('`before` is an event number.');
    }
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
});
