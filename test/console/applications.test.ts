import { describe, expect, it } from 'vitest';
import { findSubmission } from '../../db/applications/submissions.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { applicationDecisionWorkflowId } from '../../src/applications/ids.js';
import { eventually } from '../harness/eventually.js';
import { runHistory } from '../harness/runHistory.js';
import { addTestMember, snowflake } from '../harness/fixtures.js';
import { createTestForm, fileTestSubmission } from '../harness/applications.js';
import { createModerationGuild } from '../harness/moderationGuild.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { confirmLinesOf, consoleClient, errorCodeOf } from './consoleClient.js';
import { askDecision, cancelOf, expectRefusedAtEachStep } from './decisionSteps.js';
import { featureOff } from './ticketBed.js';

// The decision runs its workflow on a real worker over the local platform: the dashboard's decision must give the
// roles and DM the applicant exactly as the API's does (test/workflows/applicationsDecision.test.ts).
const { db, app, gateway } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });

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
    expect(page.text).toContain('Review the decision');
    expect((await client.get(`${path}/${second.number}`)).text).not.toContain('Review the decision');
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

  it("accepts only once confirmed, through the API's decision use case: the console user decides, the worker gives and removes the form's roles and DMs the applicant", async () => {
    const { guild, managerId, form, announce, client, path } = await signedIn();
    const userId = await addTestMember(db(), guild, { username: 'ada', roleIds: [guild.roles.member] });
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });
    await client.get(`${path}/${number}`);
    const before = await state(guild.id);
    const { confirm, page } = await askDecision(client, `${path}/${number}`, { decision: 'accepted', 'decision-reason': ' Welcome aboard. ' }, 'decision=accepted&decision-reason=Welcome+aboard.');
    expect(page.text).toContain(`<title>Accept application #${number} by ada?`);
    expect(page.text).toContain('data-confirm-decision="accepted">With the reason &quot;Welcome aboard.&quot;.');
    expect(confirmLinesOf(page.text)).toEqual([
      'ada is given the roles: Helper.',
      'ada loses the roles: Member.',
      'The acceptance is announced in #welcome.',
      'ada is sent a direct message saying the application was accepted, with your reason.',
      'The review message in #applications-review is updated to show the decision.',
    ]);
    expect(page.text).toContain(`href="${path}/${number}?decision=accepted&amp;decision-reason=Welcome+aboard.">Cancel</a>`);
    // Nothing is decided before the confirmation: no row changed, no audit row, no workflow.
    expect(await state(guild.id)).toEqual(before);
    expect(await runHistory(gateway.client, applicationDecisionWorkflowId(guild.id, number))).toEqual([]);

    const res = await client.post(confirm, { decision: 'accepted', 'decision-reason': 'Welcome aboard.' });
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
    expect((await client.get(`${path}/${number}`)).text).toContain('by boss: Welcome aboard.');

    // The confirmation sent again (Back, resubmit) goes to the submission and decides nothing more.
    const settled = await state(guild.id);
    const again = await client.post(confirm, { decision: 'denied' });
    expect([again.status, again.headers.location]).toEqual([303, `${path}/${number}`]);
    expect(await state(guild.id)).toEqual(settled);
    expect(settled.submissions).toMatchObject([{ number, status: 'accepted', reason: 'Welcome aboard.' }]);
  });

  it('denies, once confirmed, with the DM and no role change; the confirmation says so and Cancel keeps the values', async () => {
    const { guild, form, client, path } = await signedIn();
    const userId = await addTestMember(db(), guild, { username: 'ada', roleIds: [guild.roles.member] });
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });
    await client.get(`${path}/${number}`);
    const before = await state(guild.id);
    const { confirm, page } = await askDecision(client, `${path}/${number}`, { decision: 'denied', 'decision-reason': 'Not yet.' }, 'decision=denied&decision-reason=Not+yet.');
    expect(page.text).toContain(`<title>Deny application #${number} by ada?`);
    expect(confirmLinesOf(page.text)).toEqual([
      "ada's roles do not change.",
      'ada may apply with this form again after 7 days.',
      'ada is sent a direct message saying the application was denied, with your reason.',
      'The review message in #applications-review is updated to show the decision.',
    ]);
    const back = await client.get(cancelOf(page.text));
    expect(back.status).toBe(200);
    expect(back.text).toMatch(/name="decision" value="denied" checked/);
    expect(back.text).toMatch(/id="decision-reason"[^>]*>Not yet\.</);
    expect(back.text).not.toContain('data-error-summary');
    expect(await state(guild.id)).toEqual(before);

    expect((await client.post(confirm, { decision: 'denied', 'decision-reason': 'Not yet.' })).status).toBe(303);
    await eventually(() => findSubmission(db(), guild.id, number), (s) => s?.applying === false);
    expect(await rolesOf(guild.id, userId)).toEqual([guild.roles.member]);
    const [dm] = await listPlatformDirectMessages(db(), guild.id, userId);
    expect(dm!.content).toContain('denied');
  });

  it.each([
    ['no decision', {}, 'decision', 'Choose to accept or deny.'],
    ['an unknown decision', { decision: 'maybe' }, 'decision', 'Choose to accept or deny.'],
    ['a reason of 1,001 characters', { decision: 'denied', 'decision-reason': 'x'.repeat(1001) }, 'decision-reason', 'Give a reason of at most 1,000 characters, without control characters.'],
  ])('keeps %s on the form (400 INVALID_INPUT, the field named), sent to the form, the confirmation page or its action, and decides nothing', async (_, fields, field, message) => {
    const { guild, form, client, path } = await signedIn();
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId: await guild.addMember(), at: new Date() });
    const confirm = `${path}/${number}/decision/confirm`;
    await client.get(`${path}/${number}`);
    await client.get(`${confirm}?decision=denied`);
    const before = await state(guild.id);
    await expectRefusedAtEachStep(client, `${path}/${number}`, fields, field, message);
    expect(await state(guild.id)).toEqual(before);
  });

  it('refuses a decided submission 409 APPLICATION_NOT_OPEN (asked or confirmed), and actions while Applications is off 409 FEATURE_DISABLED, changing nothing', async () => {
    const { guild, form, client, path } = await signedIn();
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId: await guild.addMember(), at: new Date() });
    const other = await fileTestSubmission(db(), guild.id, { form, userId: await guild.addMember(), at: new Date() });
    const confirm = `${path}/${number}/decision/confirm`;
    await client.get(`${path}/${number}`);
    // The confirmation opened while the submission was open; it is withdrawn before the manager confirms.
    await client.get(`${confirm}?decision=accepted`);
    await client.get(`${path}/${other.number}/decision/confirm?decision=accepted`);
    await db().updateTable('application_submissions').set({ status: 'withdrawn' }).where('guild_id', '=', guild.id).where('number', '=', number).execute();
    const before = await state(guild.id);
    for (const res of [await client.post(`${path}/${number}/decision`, { decision: 'accepted' }), await client.get(`${confirm}?decision=accepted`), await client.post(confirm, { decision: 'accepted' })]) {
      expect([res.status, errorCodeOf(res)]).toEqual([409, 'APPLICATION_NOT_OPEN']);
    }
    await featureOff(db(), guild.id, 'applications');
    expect((await client.get(path)).text).toContain('data-feature-off="applications"');
    const off = await client.post(`${path}/${other.number}/decision`, { decision: 'accepted' });
    expect([off.status, errorCodeOf(off)]).toEqual([409, 'FEATURE_DISABLED']);
    const offConfirmed = await client.post(`${path}/${other.number}/decision/confirm`, { decision: 'accepted' });
    expect([offConfirmed.status, errorCodeOf(offConfirmed)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await state(guild.id)).toEqual(before);
  });
});
