import { describe, expect, it } from 'vitest';
import { findAppeal } from '../../db/appeals/appeals.js';
import { insertCase } from '../../db/moderation/cases.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { banPlatformUser, findPlatformBan, listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { fileTestAppeal } from '../harness/appeals.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, snowflake, type TestGuild } from '../harness/fixtures.js';
import { createModerationGuild } from '../harness/moderationGuild.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { consoleClient, errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { featureOff } from './ticketBed.js';

// The decision runs its workflow on a real worker over the local platform: the dashboard's decision must unban,
// invite and DM the appellant exactly as the API's does (test/workflows/appealDecision.test.ts).
const { db, app } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });

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
    expect(page.text).toContain('Record the decision');
    expect((await client.get(`${path}/${second.number}`)).text).not.toContain('Record the decision');
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
      expect(res.text).toContain('Record the decision');
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

  it("approves through the API's decision use case: the console user decides, the worker unbans with a console case, invites and DMs the appellant", async () => {
    const { guild, managerId, moderatorId, client, path } = await signedIn();
    const { userId, number } = await bannedAppellant(guild, moderatorId);
    await client.get(`${path}/${number}`);
    const res = await client.post(`${path}/${number}/decision`, { 'appeal-verb': 'approve', 'appeal-reason': 'Second chance.' });
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
    const page = await client.get(`${path}/${number}`);
    expect(page.text).toContain('by boss: Second chance.');
  });

  it('rejects: the ban stays, the appellant is told, the re-appeal wait starts', async () => {
    const { guild, managerId, moderatorId, client, path } = await signedIn();
    const { userId, number } = await bannedAppellant(guild, moderatorId);
    await client.get(`${path}/${number}`);
    expect((await client.post(`${path}/${number}/decision`, { 'appeal-verb': 'reject', 'appeal-reason': 'Not yet.' })).status).toBe(303);
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
  ])('keeps %s on the form (400 INVALID_INPUT, the field named) and decides nothing', async (_, fields, field, message) => {
    const { guild, moderatorId, client, path } = await signedIn();
    const { number } = await bannedAppellant(guild, moderatorId);
    await client.get(`${path}/${number}`);
    const before = await state(guild.id);
    const res = await client.post(`${path}/${number}/decision`, fields);
    expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, field)).toBe(message);
    expect(await state(guild.id)).toEqual(before);
  });

  it('refuses a decided appeal 409 APPEAL_NOT_OPEN, and actions while Appeals is off 409 FEATURE_DISABLED, changing nothing', async () => {
    const { guild, moderatorId, client, path } = await signedIn();
    const decided = await bannedAppellant(guild, moderatorId);
    const other = await bannedAppellant(guild, moderatorId);
    await client.get(`${path}/${decided.number}`);
    await client.get(`${path}/${other.number}`);
    await db().updateTable('appeals').set({ status: 'rejected', decided_at: new Date(), reason: 'earlier' }).where('guild_id', '=', guild.id).where('number', '=', decided.number).execute();
    const before = await state(guild.id);
    const closed = await client.post(`${path}/${decided.number}/decision`, { 'appeal-verb': 'approve', 'appeal-reason': 'x' });
    expect([closed.status, errorCodeOf(closed)]).toEqual([409, 'APPEAL_NOT_OPEN']);
    const missing = await client.get(`${path}/999999`);
    expect([missing.status, errorCodeOf(missing)]).toEqual([404, 'APPEAL_NOT_FOUND']);
    await featureOff(db(), guild.id, 'appeals');
    expect((await client.get(path)).text).toContain('data-feature-off="appeals"');
    const off = await client.post(`${path}/${other.number}/decision`, { 'appeal-verb': 'approve', 'appeal-reason': 'x' });
    expect([off.status, errorCodeOf(off)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await state(guild.id)).toEqual(before);
  });
});
