import { describe, expect, it } from 'vitest';
import { findSubmission } from '../../db/applications/submissions.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, snowflake } from '../harness/fixtures.js';
import { createTestForm, fileTestSubmission } from '../harness/applications.js';
import { createModerationGuild } from '../harness/moderationGuild.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { consoleClient, errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { featureOff } from './ticketBed.js';

// The decision runs its workflow on a real worker over the local platform: the dashboard's decision must give the
// roles and DM the applicant exactly as the API's does (test/workflows/applicationsDecision.test.ts).
const { db, app } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });

async function signedIn() {
  const guild = await createModerationGuild(db());
  const managerId = await addTestMember(db(), guild, { username: 'boss', roleIds: [guild.roles.admin] });
  const announce = snowflake();
  const review = snowflake();
  await upsertPlatformChannels(db(), guild.id, [
    { channelId: announce, name: 'welcome', type: 'text', position: 0 },
    { channelId: review, name: 'applications-review', type: 'text', position: 1 },
  ]);
  const form = await createTestForm(db(), guild.id, { acceptRoleIds: [guild.roles.helper], removeRoleIds: [guild.roles.member], announceChannelId: announce, reviewChannelId: review });
  const client = consoleClient(app.baseUrl);
  await client.signIn(managerId);
  return { guild, managerId, form, announce, client, path: `/console/servers/${guild.id}/applications` };
}

const rolesOf = async (guildId: string, userId: string) =>
  (await db().selectFrom('platform_members').select('role_ids').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirstOrThrow()).role_ids;
const numbersOn = (html: string) => [...html.matchAll(/data-submission="(\d+)"/g)].map((m) => Number(m[1]));
const state = async (guildId: string) => ({
  submissions: await db().selectFrom('application_submissions').select(['number', 'status', 'reason', 'decided_by']).where('guild_id', '=', guildId).orderBy('number').execute(),
  audit: await db().selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
});

describe('application submissions in the dashboard', () => {
  it('lists submissions by status with the applicant by name, and shows one with its answers', async () => {
    const { guild, form, client, path } = await signedIn();
    const userId = await addTestMember(db(), guild, { username: 'ada' });
    const first = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });
    const second = await fileTestSubmission(db(), guild.id, { form, userId: await guild.addMember(), at: new Date() });
    await db().updateTable('application_submissions').set({ status: 'withdrawn' }).where('guild_id', '=', guild.id).where('number', '=', second.number).execute();

    const list = await client.get(path);
    expect(list.status).toBe(200);
    expect(numbersOn(list.text)).toEqual([second.number, first.number]);
    expect(list.text).toContain('<td>ada</td>');
    expect(numbersOn((await client.get(`${path}?status=open`)).text)).toEqual([first.number]);
    const bad = await client.get(`${path}?status=maybe`);
    expect([bad.status, errorCodeOf(bad)]).toEqual([400, 'INVALID_INPUT']);

    const page = await client.get(`${path}/${first.number}`);
    expect(page.text).toContain('<dt>How old are you?</dt><dd>24</dd>');
    expect(page.text).toContain('Record the decision');
    expect((await client.get(`${path}/${second.number}`)).text).not.toContain('Record the decision');
  });

  it('says on the first visit, with no submission yet, how members apply and what to set up; a filter with none says so', async () => {
    const { client, path } = await signedIn();
    const first = await client.get(path);
    expect(first.status).toBe(200);
    expect(numbersOn(first.text)).toEqual([]);
    expect(first.text).toMatch(/data-empty="submissions"[^>]*>No submission yet\. Members apply with a form posted in a channel: create the form under Forms, then post its panel under Panels\.</);
    expect(first.text).toContain(`href="${path}/forms">Forms</a>`);
    expect(first.text).toContain(`href="${path}/panels">Panels</a>`);
    const filtered = await client.get(`${path}?status=hold`);
    expect(filtered.text).toMatch(/data-empty="submissions"[^>]*>No submission has this status\.</);
    expect(filtered.text).not.toContain('No submission yet');
  });

  it("accepts through the API's decision use case: the console user decides, the worker gives and removes the form's roles and DMs the applicant", async () => {
    const { guild, managerId, form, announce, client, path } = await signedIn();
    const userId = await guild.addMember([guild.roles.member]);
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });
    await client.get(`${path}/${number}`);
    const res = await client.post(`${path}/${number}/decision`, { decision: 'accepted', 'decision-reason': 'Welcome aboard.' });
    expect([res.status, res.headers.location]).toEqual([303, `${path}/${number}`]);

    const done = await eventually(() => findSubmission(db(), guild.id, number), (s) => s?.applying === false);
    expect(done).toMatchObject({ status: 'accepted', reason: 'Welcome aboard.', decidedBy: managerId, decidedWithApiKeyId: null, failedActions: [] });
    expect(await rolesOf(guild.id, userId)).toEqual([guild.roles.helper]);
    const [dm] = await listPlatformDirectMessages(db(), guild.id, userId);
    expect(dm!.content).toContain('accepted');
    expect(dm!.content).toContain('Welcome aboard.');
    const announced = await db().selectFrom('platform_messages').select('content').where('guild_id', '=', guild.id).where('channel_id', '=', announce).execute();
    expect(announced).toEqual([{ content: `Welcome <@${userId}>: your application "Staff application" was accepted!` }]);
    const audit = await db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'data']).where('guild_id', '=', guild.id).where('action', '=', 'applications.decide').execute();
    expect(audit).toEqual([{ actor_type: 'console_user', actor_id: managerId, data: { userId, decision: 'accepted', previousStatus: 'pending', reason: 'Welcome aboard.' } }]);
    const page = await client.get(`${path}/${number}`);
    expect(page.text).toContain('by boss: Welcome aboard.');
  });

  it('denies with the DM and no role change', async () => {
    const { guild, form, client, path } = await signedIn();
    const userId = await guild.addMember([guild.roles.member]);
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });
    await client.get(`${path}/${number}`);
    expect((await client.post(`${path}/${number}/decision`, { decision: 'denied' })).status).toBe(303);
    await eventually(() => findSubmission(db(), guild.id, number), (s) => s?.applying === false);
    expect(await rolesOf(guild.id, userId)).toEqual([guild.roles.member]);
    const [dm] = await listPlatformDirectMessages(db(), guild.id, userId);
    expect(dm!.content).toContain('denied');
  });

  it.each([
    ['no decision', {}, 'decision', 'Choose to accept or deny.'],
    ['an unknown decision', { decision: 'maybe' }, 'decision', 'Choose to accept or deny.'],
    ['a reason of 1,001 characters', { decision: 'denied', 'decision-reason': 'x'.repeat(1001) }, 'decision-reason', 'Give a reason of at most 1,000 characters, without control characters.'],
  ])('keeps %s on the form (400 INVALID_INPUT, the field named) and decides nothing', async (_, fields, field, message) => {
    const { guild, form, client, path } = await signedIn();
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId: await guild.addMember(), at: new Date() });
    await client.get(`${path}/${number}`);
    const before = await state(guild.id);
    const res = await client.post(`${path}/${number}/decision`, fields);
    expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, field)).toBe(message);
    expect(await state(guild.id)).toEqual(before);
  });

  it('refuses a decided submission 409 APPLICATION_NOT_OPEN, and actions while Applications is off 409 FEATURE_DISABLED, changing nothing', async () => {
    const { guild, form, client, path } = await signedIn();
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId: await guild.addMember(), at: new Date() });
    const other = await fileTestSubmission(db(), guild.id, { form, userId: await guild.addMember(), at: new Date() });
    await client.get(`${path}/${number}`);
    await client.get(`${path}/${other.number}`);
    await db().updateTable('application_submissions').set({ status: 'withdrawn' }).where('guild_id', '=', guild.id).where('number', '=', number).execute();
    const before = await state(guild.id);
    const closed = await client.post(`${path}/${number}/decision`, { decision: 'accepted' });
    expect([closed.status, errorCodeOf(closed)]).toEqual([409, 'APPLICATION_NOT_OPEN']);
    await featureOff(db(), guild.id, 'applications');
    expect((await client.get(path)).text).toContain('data-feature-off="applications"');
    const off = await client.post(`${path}/${other.number}/decision`, { decision: 'accepted' });
    expect([off.status, errorCodeOf(off)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await state(guild.id)).toEqual(before);
  });
});
