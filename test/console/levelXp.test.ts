import { describe, expect, it } from 'vitest';
import { addLevelReward } from '../../db/levels/members.js';
import { upsertPlatformMember } from '../../db/platform/local.js';
import { listRoleChanges } from '../../db/platform/roles.js';
import { requestXpChange } from '../../src/levels/requestXpChange.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestKey, snowflake } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { levelsBed } from './levelsBed.js';

// A member's XP changed from the console, end to end: the API's XP change (its workflow on a real worker over the
// local platform), a removal or a set only after its confirmation page, each refusal on its field with nothing changed.
const { db, app } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const { signedIn, state } = levelsBed(db, app);

describe("a member's XP change from the console", () => {
  it("is the API's XP change asked by the console user: applied by its workflow, reward role given, audited, shown with its status", async () => {
    const { guild, client, path, regular } = await signedIn();
    await addLevelReward(db(), guild.id, { level: 1, roleId: regular });
    const ada = await addTestMember(db(), guild, { username: 'ada' });
    const member = await client.get(`${path}/members/${ada}`);
    expect(member.status).toBe(200);
    expect(member.text).toContain('ada');
    const res = await client.post(`${path}/members/${ada}/xp-changes`, { 'xp-type': 'add', 'xp-amount': '150', 'xp-unit': 'xp', 'xp-reason': 'Event winner' });
    expect(res.status).toBe(303);
    const changeId = /\/levels\/xp-changes\/(xpc_[\w-]{16})$/.exec(res.headers.location ?? '')?.[1];
    expect(changeId).toBeDefined();
    const done = await eventually(() => db().selectFrom('xp_changes').selectAll().where('change_id', '=', changeId!).executeTakeFirstOrThrow(), (c) => c.status === 'done');
    expect(done).toMatchObject({ api_key_id: null, console_user_id: guild.managerId, type: 'add', amount: 150, reason: 'Event winner', result: { previousLevel: 0, level: 1, xp: 150 } });
    expect(await listRoleChanges(db(), guild.id, ada)).toEqual([{ role_id: regular, action: 'add' }]);
    const audit = await db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'api_key_id', 'data']).where('guild_id', '=', guild.id).where('action', '=', 'levels.xpChange').execute();
    expect(audit).toMatchObject([{ actor_type: 'console_user', actor_id: guild.managerId, api_key_id: null, data: { changeId, reason: 'Event winner', xp: 150 } }]);
    const page = await client.get(res.headers.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-xp-status="done"');
    expect(page.text).toContain('Level 0 → 1, 150 XP.');
    // What the API's body leaves out: the reason, and the manager who asked, by name.
    expect(page.text).toContain('<dt>Reason</dt><dd data-xp-reason="true">Event winner</dd><dt>Asked by</dt><dd data-xp-asked-by="true">manager</dd>');
    // An API key never sees a change asked in the console (its polling is limited to the key's own changes).
    const { key } = await createTestKey(db(), guild, { scopes: ['levels:write'] });
    const api = await app.http('GET', `/guilds/${guild.id}/levels/xp-changes/${changeId}`, { headers: bearer(key) });
    expect([api.status, api.body?.error]).toEqual([404, 'XP_CHANGE_NOT_FOUND']);
  });

  it("does not show an API key's change in the console, nor a malformed id", async () => {
    const { guild, client, path } = await signedIn();
    const { id } = await createTestKey(db(), guild, { scopes: ['levels:write'] });
    const record = await db().transaction().execute((trx) =>
      requestXpChange(trx, { guildId: guild.id, userId: guild.memberId, asker: { apiKeyId: id }, type: 'add', unit: 'xp', amount: 1, reason: null, createdAt: new Date() }),
    );
    const theirs = await client.get(`${path}/xp-changes/${record.changeId}`);
    expect([theirs.status, errorCodeOf(theirs)]).toEqual([404, 'XP_CHANGE_NOT_FOUND']);
    const bad = await client.get(`${path}/xp-changes/nope`);
    expect([bad.status, errorCodeOf(bad)]).toEqual([404, 'PAGE_NOT_FOUND']);
  });

  it('shows a change asked without a reason as such, and its asker by name (another manager), escaped', async () => {
    const { guild, client, path } = await signedIn();
    const other = await addTestMember(db(), guild, { username: '<b>Bo</b>', roleIds: [guild.managerRoleId] });
    const record = await db().transaction().execute((trx) =>
      requestXpChange(trx, { guildId: guild.id, userId: guild.memberId, asker: { consoleUserId: other }, type: 'add', unit: 'xp', amount: 1, reason: null, createdAt: new Date() }),
    );
    const page = await client.get(`${path}/xp-changes/${record.changeId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<dt>Reason</dt><dd data-xp-reason="true">none given</dd><dt>Asked by</dt><dd data-xp-asked-by="true">&lt;b>Bo&lt;/b></dd>');
  });

  it.each([
    ['a negative amount', { 'xp-type': 'add', 'xp-amount': '-5', 'xp-unit': 'xp' }, 400, 'INVALID_INPUT', 'xp-amount'],
    ['an amount over 2,000,000,000', { 'xp-type': 'set', 'xp-amount': '2000000001', 'xp-unit': 'xp' }, 400, 'INVALID_INPUT', 'xp-amount'],
    ['no change type', { 'xp-amount': '5', 'xp-unit': 'xp' }, 400, 'INVALID_INPUT', 'xp-type'],
    ['an unknown unit', { 'xp-type': 'add', 'xp-amount': '5', 'xp-unit': 'stars' }, 400, 'INVALID_INPUT', 'xp-unit'],
    ['a reason over 200 characters', { 'xp-type': 'add', 'xp-amount': '5', 'xp-unit': 'xp', 'xp-reason': 'x'.repeat(201) }, 400, 'INVALID_INPUT', 'xp-reason'],
  ])('refuses %s on the field, changing nothing', async (_, fields, status, code, field) => {
    const { guild, client, path } = await signedIn();
    await client.get(`${path}/members/${guild.memberId}`);
    const res = await client.post(`${path}/members/${guild.memberId}/xp-changes`, fields);
    expect([res.status, errorCodeOf(res)]).toEqual([status, code]);
    expect(fieldErrorOf(res.text, field)).toBeTruthy();
    expect(await state(guild.id)).toMatchObject({ changes: [], audit: [] });
  });

  it('refuses a bot 422 BOT_ACCOUNT, a user who left 404 MEMBER_NOT_FOUND (asked or confirmed) and Levels off 409 FEATURE_DISABLED, changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    const bot = snowflake();
    await upsertPlatformMember(db(), { guildId: guild.id, userId: bot, username: 'helper-bot', bot: true, roleIds: [] });
    const gone = snowflake();
    const body = { 'xp-type': 'add', 'xp-amount': '5', 'xp-unit': 'xp' };
    for (const [userId, status, code] of [[bot, 422, 'BOT_ACCOUNT'], [gone, 404, 'MEMBER_NOT_FOUND']] as const) {
      // Refused before the confirmation (remove, set) as well as when confirmed (the member may leave meanwhile).
      for (const [action, type] of [['xp-changes', 'add'], ['xp-changes', 'remove'], ['xp-changes', 'set'], ['xp-changes/confirm', 'remove']]) {
        const page = action === 'xp-changes' ? `${path}/members/${userId}` : `${path}/members/${userId}/xp-changes/confirm?xp-type=${type}&xp-amount=5&xp-unit=xp`;
        expect((await client.get(page)).status).toBe(200);
        const res = await client.post(`${path}/members/${userId}/${action}`, { ...body, 'xp-type': type! });
        expect([action, type, res.status, errorCodeOf(res), fieldErrorOf(res.text, 'xp-type') !== undefined]).toEqual([action, type, status, code, true]);
      }
    }
    await client.get(`${path}/members/${guild.memberId}`);
    await db().updateTable('guilds').set({ features: [] }).where('id', '=', guild.id).execute();
    const off = await client.post(`${path}/members/${guild.memberId}/xp-changes`, body);
    expect([off.status, errorCodeOf(off)]).toEqual([409, 'FEATURE_DISABLED']);
    const confirm = await client.get(`${path}/members/${guild.memberId}/xp-changes/confirm?xp-type=remove&xp-amount=5&xp-unit=xp`);
    expect([confirm.status, errorCodeOf(confirm)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await state(guild.id)).toMatchObject({ changes: [], audit: [] });
  });
});


describe('a removal or a set of XP', () => {
  /** ada with 1,200 XP (level 5: 50 XP into it) holding the level-5 reward role, and her page open. */
  async function withAda() {
    const bed = await signedIn();
    await addLevelReward(db(), bed.guild.id, { level: 5, roleId: bed.regular });
    const ada = await addTestMember(db(), bed.guild, { username: 'ada', roleIds: [bed.regular] });
    await db().insertInto('level_members').values({ guild_id: bed.guild.id, user_id: ada, xp: 1_200 }).execute();
    const member = `${bed.path}/members/${ada}`;
    await bed.client.get(member);
    return { ...bed, ada, member, confirm: `${member}/xp-changes/confirm` };
  }

  it('shows its confirmation and changes nothing until confirmed; confirmed, it is the API\'s XP change by the console user', async () => {
    const { guild, client, ada, member, confirm, regular } = await withAda();
    const before = await state(guild.id);
    const asked = await client.post(`${member}/xp-changes`, { 'xp-type': 'remove', 'xp-amount': ' 300 ', 'xp-unit': 'xp', 'xp-reason': 'Spam' });
    expect([asked.status, asked.headers.location]).toEqual([303, `${confirm}?xp-type=remove&xp-amount=300&xp-unit=xp&xp-reason=Spam`]);
    const page = await client.get(asked.headers.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Remove 300 XP from ada?');
    expect(page.text).toContain('data-confirm-xp-change="remove"');
    expect(page.text).toContain('ada goes from 1,200 XP (level 5) to <strong data-xp-after="900">900 XP (level 4)</strong>, with the reason &quot;Spam&quot;.');
    expect(page.text).toContain('Reward roles above the new level are taken away.');
    expect(page.text).toContain(`href="${member}?xp-type=remove&amp;xp-amount=300&amp;xp-unit=xp&amp;xp-reason=Spam">Cancel</a>`);
    expect(await state(guild.id)).toEqual(before);
    const done = await client.post(confirm, { 'xp-type': 'remove', 'xp-amount': '300', 'xp-unit': 'xp', 'xp-reason': 'Spam' });
    expect(done.status).toBe(303);
    const changeId = /\/levels\/xp-changes\/(xpc_[\w-]{16})$/.exec(done.headers.location ?? '')?.[1];
    expect(changeId).toBeDefined();
    const applied = await eventually(() => db().selectFrom('xp_changes').selectAll().where('change_id', '=', changeId!).executeTakeFirstOrThrow(), (c) => c.status === 'done');
    expect(applied).toMatchObject({ api_key_id: null, console_user_id: guild.managerId, type: 'remove', unit: 'xp', amount: 300, reason: 'Spam', result: { previousLevel: 5, level: 4, xp: 900 } });
    expect(await listRoleChanges(db(), guild.id, ada)).toEqual([{ role_id: regular, action: 'remove' }]);
    const audit = await db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'api_key_id', 'data']).where('guild_id', '=', guild.id).where('action', '=', 'levels.xpChange').execute();
    expect(audit).toMatchObject([{ actor_type: 'console_user', actor_id: guild.managerId, api_key_id: null, data: { changeId, reason: 'Spam', xp: 900 } }]);
    // The confirmation sent again (Back, resubmit) goes to the first answer's page and asks nothing more.
    const again = await client.post(confirm, { 'xp-type': 'remove', 'xp-amount': '300', 'xp-unit': 'xp', 'xp-reason': 'Spam' });
    expect([again.status, again.headers.location]).toEqual([303, done.headers.location]);
    expect((await state(guild.id)).changes).toHaveLength(1);
  });

  it('asks before a set too, and Cancel brings the values back to the form, nothing changed', async () => {
    const { guild, client, member } = await withAda();
    const before = await state(guild.id);
    const asked = await client.post(`${member}/xp-changes`, { 'xp-type': 'set', 'xp-amount': '2', 'xp-unit': 'levels' });
    const page = await client.get(asked.headers.location!);
    expect(page.text).toContain('<title>Set ada to level 2?');
    // Level 2 starts at 255 XP; the 50 XP earned inside level 5 are kept.
    expect(page.text).toContain('<strong data-xp-after="305">305 XP (level 2)</strong>, with no reason.');
    const cancel = /href="([^"]+)">Cancel<\/a>/.exec(page.text)![1]!.replaceAll('&amp;', '&');
    const form = await client.get(cancel);
    expect(form.status).toBe(200);
    expect(form.text).toMatch(/name="xp-type" value="set" checked/);
    expect(form.text).toMatch(/name="xp-unit" value="levels" checked/);
    expect(form.text).toMatch(/id="xp-amount"[^>]*value="2"/);
    expect(form.text).not.toContain('data-error-summary');
    expect(await state(guild.id)).toEqual(before);
  });

  it.each([
    ['page', 'xp-amount=-1', 'xp-amount'],
    ['page', 'xp-amount=2000000001', 'xp-amount'],
    ['page', 'xp-amount=', 'xp-amount'],
    ['action', 'xp-amount=ten', 'xp-amount'],
    ['action', 'xp-amount=', 'xp-amount'],
    ['action', 'xp-amount=5&xp-unit=stars', 'xp-unit'],
  ])('brings a bad value on the confirmation %s (%s) back on the form 400 INVALID_INPUT, changing nothing', async (on, query, field) => {
    const { guild, client, confirm } = await withAda();
    const sent = new URLSearchParams({ 'xp-type': 'remove', 'xp-unit': 'xp', 'xp-reason': 'Spam' });
    for (const [k, v] of new URLSearchParams(query)) sent.set(k, v);
    await client.get(`${confirm}?xp-type=remove&xp-amount=5&xp-unit=xp`);
    const before = await state(guild.id);
    const res = on === 'page' ? await client.get(`${confirm}?${sent.toString()}`) : await client.post(confirm, Object.fromEntries(sent));
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'INVALID_INPUT']);
    expect(res.text).toContain(`href="#${field}"`);
    expect(fieldErrorOf(res.text, field)).toBeTruthy();
    // The form, with the values as sent.
    expect(res.text).toContain('Change the XP</button>');
    expect(res.text).toMatch(/name="xp-type" value="remove" checked/);
    expect(res.text).toMatch(/id="xp-reason"[^>]*value="Spam"/);
    if (field === 'xp-amount' && sent.get('xp-amount')) expect(res.text).toMatch(new RegExp(`id="xp-amount"[^>]*value="${sent.get('xp-amount')}"`));
    expect(await state(guild.id)).toEqual(before);
  });
});
