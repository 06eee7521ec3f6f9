import { describe, expect, it } from 'vitest';
import { findAppeal } from '../../db/appeals/appeals.js';
import { insertCase } from '../../db/moderation/cases.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { banPlatformUser, findPlatformBan, listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { saveAppealSettings } from '../../db/appeals/settings.js';
import { appealDecisionWorkflowId } from '../../src/appeals/ids.js';
import { fileTestAppeal } from '../harness/appeals.js';
import { eventually } from '../harness/eventually.js';
import { runHistory } from '../harness/runHistory.js';
import { addTestMember, snowflake, type TestGuild } from '../harness/fixtures.js';
import { createModerationGuild } from '../harness/moderationGuild.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { confirmLinesOf, consoleClient, errorCodeOf } from './consoleClient.js';
import { askDecision, cancelOf, expectRefusedAtEachStep } from './decisionSteps.js';
import { featureOff } from './ticketBed.js';

// The decision runs its workflow on a real worker over the local platform: the dashboard's decision must unban,
// invite and DM the appellant exactly as the API's does (test/workflows/appealDecision.test.ts).
const { db, app, gateway } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });

async function signedIn() {
  const guild = await createModerationGuild(db());
  const managerId = await addTestMember(db(), guild, { username: 'boss', roleIds: [guild.roles.admin] });
  const moderatorId = await addTestMember(db(), guild, { username: 'mod', roleIds: [guild.roles.moderator] });
  const general = snowflake();
  await upsertPlatformChannels(db(), guild.id, [{ channelId: general, name: 'general', type: 'text', position: 0 }]);
  const client = consoleClient(app.baseUrl);
  await client.signIn(managerId);
  return { guild, managerId, moderatorId, client, path: `/console/servers/${guild.id}/appeals` };
}

/** A member banned with a ban case by `moderatorId`, and their appeal, filed as the bot files it. */
async function bannedAppellant(guild: TestGuild, moderatorId: string, userTag = 'appellant') {
  const userId = snowflake();
  await banPlatformUser(db(), { guildId: guild.id, userId, reason: 'spam' });
  const { number: caseNumber } = await insertCase(db(), {
    guildId: guild.id,
    action: 'ban',
    userId,
    userTag,
    moderatorId,
    reason: 'spam in #general',
    durationSeconds: null,
    evidence: [],
    source: 'command',
    active: true,
    expiresAt: null,
    dmStatus: 'sent',
    apiKey: null,
    operationId: null,
    createdAt: new Date(),
  });
  const answers = [{ id: 'why', type: 'paragraph', label: 'Why should we unban you?', value: 'I changed.' }];
  const { number } = await fileTestAppeal(db(), guild.id, { userId, userTag, banCaseNumber: caseNumber, banReason: 'spam', answers, at: new Date() });
  return { userId, number, caseNumber };
}

const numbersOn = (html: string) => [...html.matchAll(/data-appeal="(\d+)"/g)].map((m) => Number(m[1]));
const state = async (guildId: string) => ({
  appeals: await db().selectFrom('appeals').select(['number', 'status', 'reason', 'decided_by', 'applying', 'reappeal_after']).where('guild_id', '=', guildId).orderBy('number').execute(),
  messages: await db().selectFrom('appeal_messages').select('id').where('guild_id', '=', guildId).execute(),
  bans: await db().selectFrom('platform_bans').select('user_id').where('guild_id', '=', guildId).orderBy('user_id').execute(),
  audit: await db().selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
});

describe('ban appeals in the dashboard', () => {
  it('says on the first visit, with no appeal, where appeals come from and how to see decided ones', async () => {
    const { client, path } = await signedIn();
    const first = await client.get(path);
    expect(first.status).toBe(200);
    expect(numbersOn(first.text)).toEqual([]);
    expect(first.text).toMatch(
      /data-empty="appeals"[^>]*>No appeal is waiting for a decision\. A member banned while Appeals is on gets an Appeal button in their ban message; what they send comes here for you to approve or reject\. For decided appeals, choose another status above\.</,
    );
    expect((await client.get(`${path}?status=all`)).text).toMatch(/data-empty="appeals"[^>]*>No appeal has this status\.</);
  });

  it('lists the queue by status with appellants by name, pages with OlderLink, and shows an appeal with its ban case', async () => {
    const { guild, moderatorId, client, path } = await signedIn();
    const first = await bannedAppellant(guild, moderatorId, 'ada');
    const second = await bannedAppellant(guild, moderatorId, 'bob');
    await db().updateTable('appeals').set({ status: 'closed' }).where('guild_id', '=', guild.id).where('number', '=', second.number).execute();
    for (let i = 0; i < 25; i++) await fileTestAppeal(db(), guild.id, { userId: snowflake(), userTag: `filler${i}`, at: new Date() });

    const list = await client.get(path);
    expect(list.status).toBe(200);
    const firstPage = numbersOn(list.text);
    expect(firstPage).toHaveLength(25);
    expect(firstPage).not.toContain(second.number);
    const older = /href="([^"]*before=[^"]*)"/.exec(list.text)![1]!.replaceAll('&amp;', '&');
    expect(numbersOn((await client.get(older)).text)).toEqual([first.number]);
    expect((await client.get(`${path}?status=all&before=${firstPage.at(-1)}`)).text).toContain('<td>ada</td>');
    expect(numbersOn((await client.get(`${path}?status=closed`)).text)).toEqual([second.number]);
    expect((await client.get(`${path}?status=closed`)).text).toContain('<td>bob</td>');
    expect((await client.get(`${path}?status=rejected`)).text).toContain('No appeal has this status.');
    const bad = await client.get(`${path}?status=maybe`);
    expect([bad.status, errorCodeOf(bad)]).toEqual([400, 'INVALID_INPUT']);

    const page = await client.get(`${path}/${first.number}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-ban-case="${first.caseNumber}"`);
    expect(page.text).toContain('<dt>Action</dt><dd>ban</dd><dt>Reason</dt><dd>spam in #general</dd><dt>Moderator</dt><dd>mod</dd>');
    expect(page.text).toContain('<dt>Why should we unban you?</dt><dd>I changed.</dd>');
    expect(page.text).toContain('Review the decision');
    expect((await client.get(`${path}/${second.number}`)).text).not.toContain('Review the decision');
  });

  it('pages a long conversation 50 messages at a time, the latest first, each page in order, every message once, authors by name', async () => {
    const { guild, managerId, moderatorId, client, path } = await signedIn();
    const { userId, number } = await bannedAppellant(guild, moderatorId, 'ada');
    const at = new Date('2026-11-20T10:00:00.000Z');
    // 120 visible messages (the appellant, the moderator, the manager only in the earliest ten) and an internal note.
    const rows = Array.from({ length: 120 }, (_, i) => {
      const authorId = i % 2 === 0 ? userId : i < 10 ? managerId : moderatorId;
      return { guild_id: guild.id, appeal_number: number, author: authorId === userId ? ('user' as const) : ('staff' as const), author_id: authorId, text: `message ${i + 1}`, created_at: new Date(at.getTime() + i * 60_000) };
    });
    rows.splice(60, 0, { ...rows[60]!, author: 'staff', author_id: moderatorId, text: 'INTERNAL note' });
    await db().insertInto('appeal_messages').values(rows.map((r, i) => ({ ...r, internal: i === 60 }))).execute();
    const messagesOn = (html: string) => [...html.matchAll(/(message \d+)<\/li>/g)].map((m) => m[1]!);
    const earlierOf = (html: string) => /href="([^"]+)" rel="next">Earlier messages/.exec(html)?.[1]?.replaceAll('&amp;', '&');

    const seen: string[][] = [];
    let next: string | undefined = `${path}/${number}`;
    const pages: string[] = [];
    while (next) {
      const res = await client.get(next);
      expect(res.status).toBe(200);
      // The appeal itself and the decision form are on every page of its conversation.
      expect(res.text).toContain('<dt>Why should we unban you?</dt><dd>I changed.</dd>');
      expect(res.text).toContain('Review the decision');
      expect(res.text).not.toContain('INTERNAL note');
      seen.push(messagesOn(res.text));
      pages.push(res.text);
      next = earlierOf(res.text);
    }
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `message ${from + i}`);
    expect(seen).toEqual([range(71, 120), range(21, 70), range(1, 20)]);
    expect(pages[0]).toContain('<strong>ada</strong>');
    expect(pages[0]).toContain('<strong>mod</strong>');
    expect(pages[0]).not.toContain('<strong>boss</strong>');
    expect(pages[2]).toContain('<strong>boss</strong>');

    const before = await state(guild.id);
    for (const bad of ['x', '-1', '1.5', '1234567890123456']) {
      const res = await client.get(`${path}/${number}?before=${bad}`);
      expect([bad, res.status, errorCodeOf(res)]).toEqual([bad, 400, 'INVALID_INPUT']);
      expect(res.text).toContain('`before` is a message number.');
    }
    expect(await state(guild.id)).toEqual(before);
  });

  it("approves only once confirmed, through the API's decision use case: the console user decides, the worker unbans with a console case, invites and DMs the appellant", async () => {
    const { guild, managerId, moderatorId, client, path } = await signedIn();
    const { userId, number } = await bannedAppellant(guild, moderatorId);
    await client.get(`${path}/${number}`);
    const before = await state(guild.id);
    const { confirm, page } = await askDecision(client, `${path}/${number}`, { 'appeal-verb': 'approve', 'appeal-reason': 'Second chance.' }, 'appeal-verb=approve&appeal-reason=Second+chance.');
    expect(page.text).toContain(`<title>Approve appeal #${number} by appellant?`);
    expect(page.text).toContain('data-confirm-decision="approve">With the reason &quot;Second chance.&quot;.');
    expect(confirmLinesOf(page.text)).toEqual([
      "appellant's ban is lifted on Discord (when they are still banned).",
      'An unban case is recorded in Moderation with you as the moderator and your reason.',
      'appellant is sent a direct message with your reason and a single-use invite back to the server.',
      "Your reason is added to the appeal's conversation.",
    ]);
    expect(page.text).toContain(`href="${path}/${number}?appeal-verb=approve&amp;appeal-reason=Second+chance.">Cancel</a>`);
    // Nothing is decided before the confirmation: no row changed, no message, no audit row, no workflow.
    expect(await state(guild.id)).toEqual(before);
    expect(await runHistory(gateway.client, appealDecisionWorkflowId(guild.id, number))).toEqual([]);

    const res = await client.post(confirm, { 'appeal-verb': 'approve', 'appeal-reason': 'Second chance.' });
    expect([res.status, res.headers.location]).toEqual([303, `${path}/${number}`]);
    const done = await eventually(() => findAppeal(db(), guild.id, number), (a) => a?.applying === false);
    expect(done).toMatchObject({ status: 'approved', reason: 'Second chance.', decidedBy: managerId, decidedWithApiKeyId: null, failedAction: null });
    expect(await findPlatformBan(db(), guild.id, userId)).toBeUndefined();
    const [dm] = await listPlatformDirectMessages(db(), guild.id, userId);
    expect(dm!.content).toContain('approved');
    expect(dm!.content).toContain('Second chance.');
    const invites = await db().selectFrom('platform_invites').select(['code', 'max_uses']).where('guild_id', '=', guild.id).execute();
    expect(invites).toMatchObject([{ max_uses: 1 }]);
    expect(dm!.content).toContain(invites[0]!.code);
    const unban = await db().selectFrom('moderation_cases').select(['action', 'source', 'moderator_id', 'api_key_id']).where('guild_id', '=', guild.id).where('action', '=', 'unban').execute();
    expect(unban).toEqual([{ action: 'unban', source: 'console', moderator_id: managerId, api_key_id: null }]);
    const audit = await db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'data']).where('guild_id', '=', guild.id).where('action', '=', 'appeals.approve').execute();
    expect(audit).toEqual([{ actor_type: 'console_user', actor_id: managerId, data: { userId, previousStatus: 'open', reason: 'Second chance.' } }]);
    expect((await client.get(`${path}/${number}`)).text).toContain('by boss: Second chance.');

    // The confirmation sent again (Back, resubmit) goes to the appeal and decides nothing more.
    const settled = await state(guild.id);
    const again = await client.post(confirm, { 'appeal-verb': 'reject', 'appeal-reason': 'Changed my mind.' });
    expect([again.status, again.headers.location]).toEqual([303, `${path}/${number}`]);
    expect(await state(guild.id)).toEqual(settled);
  });

  it('rejects once confirmed: the ban stays, the appellant is told, the re-appeal wait starts; the confirmation follows the settings and Cancel keeps the values', async () => {
    const { guild, managerId, moderatorId, client, path } = await signedIn();
    const { userId, number } = await bannedAppellant(guild, moderatorId);
    await client.get(`${path}/${number}`);
    const before = await state(guild.id);
    const { confirm, page } = await askDecision(client, `${path}/${number}`, { 'appeal-verb': 'reject', 'appeal-reason': 'Not yet.' }, 'appeal-verb=reject&appeal-reason=Not+yet.');
    expect(page.text).toContain(`<title>Reject appeal #${number} by appellant?`);
    expect(confirmLinesOf(page.text)).toEqual([
      'appellant stays banned.',
      'appellant is sent a direct message with your reason.',
      'appellant may appeal again after 30 days.',
      "Your reason is added to the appeal's conversation.",
    ]);
    await saveAppealSettings(db(), guild.id, { rejectionDm: false, reappealCooldownSeconds: 0, inviteChannelId: null });
    expect(confirmLinesOf((await client.get(`${confirm}?appeal-verb=reject&appeal-reason=Not+yet.`)).text).slice(1, 3)).toEqual([
      'No direct message is sent: the appeal settings turn rejection messages off.',
      'appellant may appeal again at once.',
    ]);
    await saveAppealSettings(db(), guild.id, { rejectionDm: true, reappealCooldownSeconds: 30 * 86_400, inviteChannelId: null });
    const back = await client.get(cancelOf(page.text));
    expect(back.status).toBe(200);
    expect(back.text).toMatch(/name="appeal-verb" value="reject" checked/);
    expect(back.text).toMatch(/id="appeal-reason"[^>]*>Not yet\.</);
    expect(back.text).not.toContain('data-error-summary');
    expect(await state(guild.id)).toEqual(before);

    expect((await client.post(confirm, { 'appeal-verb': 'reject', 'appeal-reason': 'Not yet.' })).status).toBe(303);
    const done = await eventually(() => findAppeal(db(), guild.id, number), (a) => a?.applying === false);
    expect(done).toMatchObject({ status: 'rejected', decidedBy: managerId });
    expect(done!.reappealAfter).not.toBeNull();
    expect(await findPlatformBan(db(), guild.id, userId)).toBeDefined();
    const [dm] = await listPlatformDirectMessages(db(), guild.id, userId);
    expect(dm!.content).toContain('rejected');
    const audit = await db().selectFrom('audit_log').select(['actor_type', 'actor_id']).where('guild_id', '=', guild.id).where('action', '=', 'appeals.reject').execute();
    expect(audit).toEqual([{ actor_type: 'console_user', actor_id: managerId }]);
  });

  it.each([
    ['no decision', { 'appeal-reason': 'x' }, 'appeal-verb', 'Choose to approve or reject.'],
    ['an unknown decision', { 'appeal-verb': 'maybe', 'appeal-reason': 'x' }, 'appeal-verb', 'Choose to approve or reject.'],
    ['no reason', { 'appeal-verb': 'approve' }, 'appeal-reason', 'Give a reason of 1 to 1,000 characters, without control characters.'],
    ['a blank reason', { 'appeal-verb': 'reject', 'appeal-reason': '   ' }, 'appeal-reason', 'Give a reason of 1 to 1,000 characters, without control characters.'],
    ['a reason of 1,001 characters', { 'appeal-verb': 'reject', 'appeal-reason': 'x'.repeat(1001) }, 'appeal-reason', 'Give a reason of 1 to 1,000 characters, without control characters.'],
  ])('keeps %s on the form (400 INVALID_INPUT, the field named), sent to the form, the confirmation page or its action, and decides nothing', async (_, fields, field, message) => {
    const { guild, moderatorId, client, path } = await signedIn();
    const { number } = await bannedAppellant(guild, moderatorId);
    const confirm = `${path}/${number}/decision/confirm`;
    await client.get(`${path}/${number}`);
    await client.get(`${confirm}?appeal-verb=reject&appeal-reason=x`);
    const before = await state(guild.id);
    await expectRefusedAtEachStep(client, `${path}/${number}`, fields, field, message);
    expect(await state(guild.id)).toEqual(before);
  });

  it('refuses a decided appeal 409 APPEAL_NOT_OPEN (asked or confirmed), and actions while Appeals is off 409 FEATURE_DISABLED, changing nothing', async () => {
    const { guild, moderatorId, client, path } = await signedIn();
    const decided = await bannedAppellant(guild, moderatorId);
    const other = await bannedAppellant(guild, moderatorId);
    const confirm = `${path}/${decided.number}/decision/confirm`;
    const body = { 'appeal-verb': 'approve', 'appeal-reason': 'x' };
    await client.get(`${path}/${decided.number}`);
    // The confirmation opened while the appeal was open; it is decided (by the API, say) before the manager confirms.
    await client.get(`${confirm}?appeal-verb=approve&appeal-reason=x`);
    await client.get(`${path}/${other.number}/decision/confirm?appeal-verb=approve&appeal-reason=x`);
    await db().updateTable('appeals').set({ status: 'rejected', decided_at: new Date(), reason: 'earlier' }).where('guild_id', '=', guild.id).where('number', '=', decided.number).execute();
    const before = await state(guild.id);
    for (const res of [await client.post(`${path}/${decided.number}/decision`, body), await client.get(`${confirm}?appeal-verb=approve&appeal-reason=x`), await client.post(confirm, body)]) {
      expect([res.status, errorCodeOf(res)]).toEqual([409, 'APPEAL_NOT_OPEN']);
    }
    const missing = await client.get(`${path}/999999`);
    expect([missing.status, errorCodeOf(missing)]).toEqual([404, 'APPEAL_NOT_FOUND']);
    await featureOff(db(), guild.id, 'appeals');
    expect((await client.get(path)).text).toContain('data-feature-off="appeals"');
    for (const action of ['decision', 'decision/confirm']) {
      const off = await client.post(`${path}/${other.number}/${action}`, body);
      expect([action, off.status, errorCodeOf(off)]).toEqual([action, 409, 'FEATURE_DISABLED']);
    }
    expect(await state(guild.id)).toEqual(before);
  });
});
