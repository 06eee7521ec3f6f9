import { describe, expect, it } from 'vitest';
import { findReviewMessage } from '../../db/applications/reviewMessages.js';
import { findSubmission } from '../../db/applications/submissions.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { applicationDecisionOperation } from '../../src/applications/applicationDecisionOperation.js';
import { decideSubmission } from '../../src/applications/decideSubmission.js';
import { applicationDecisionWorkflowId } from '../../src/applications/ids.js';
import { postReviewMessage } from '../../src/applications/postReviewMessage.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { systemClock } from '../../src/core/clock.js';
import { relayUnstarted } from '../../src/core/temporal/operation.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { createTestForm, fileTestSubmission, TEST_ANSWERS } from '../harness/applications.js';
import { cli } from '../admin/cli.js';
import { eventually } from '../harness/eventually.js';
import { bearer, createTestKey, snowflake, type TestGuild } from '../harness/fixtures.js';
import { createModerationGuild } from '../harness/moderationGuild.js';

const { db, app, gateway } = useWorkflowTestBed();
const admin = cli(db, systemClock);
const ANSWERS = TEST_ANSWERS.map((a) => ({ id: a.id, text: a.text }));

async function applicationsGuild() {
  const guild = await createModerationGuild(db());
  const { key } = await createTestKey(db(), guild, { scopes: ['applications:read', 'applications:write'], createdBy: guild.moderatorId });
  const announce = snowflake();
  const review = snowflake();
  await upsertPlatformChannels(db(), guild.id, [
    { channelId: announce, name: 'welcome', type: 'text', position: 0 },
    { channelId: review, name: 'applications-review', type: 'text', position: 1 },
  ]);
  const form = await createTestForm(db(), guild.id, {
    acceptRoleIds: [guild.roles.helper],
    removeRoleIds: [guild.roles.member],
    announceChannelId: announce,
    reviewChannelId: review,
  });
  return { guild, key, form, announce, review };
}

const decide = (guild: TestGuild, key: string, number: number, body: unknown) =>
  app.http('POST', `/guilds/${guild.id}/applications/submissions/${number}/decision`, { headers: bearer(key), body });

async function applied(guild: TestGuild, key: string, number: number) {
  const res = await eventually(
    () => app.http('GET', `/guilds/${guild.id}/applications/submissions/${number}`, { headers: bearer(key) }),
    (r) => r.body?.applying === false,
  );
  return res.body;
}

const messagesIn = (guildId: string, channelId: string) =>
  db().selectFrom('platform_messages').select(['id', 'content', 'edited_at']).where('guild_id', '=', guildId).where('channel_id', '=', channelId).execute();
const contentsIn = async (guildId: string, channelId: string) => (await messagesIn(guildId, channelId)).map((m) => m.content);

/** The review message of a submission of the test form (TEST_ANSWERS) with its status line. */
const reviewOf = (number: number, userId: string, status: string) =>
  `Application #${number} by <@${userId}> to "Staff application"\n**How old are you?**\n24\n**Why do you want to join the staff?**\nI help out every day.\nStatus: ${status}`;
const rolesOf = async (guildId: string, userId: string) =>
  (await db().selectFrom('platform_members').select('role_ids').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirstOrThrow()).role_ids;

describe('application decisions', () => {
  it('accepted: gives and removes the form roles, DMs, announces, updates the review; applying turns false', async () => {
    const { guild, key, form, announce, review } = await applicationsGuild();
    const userId = await guild.addMember([guild.roles.member]);
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });

    const res = await decide(guild, key, number, { decision: 'accepted', reason: 'Welcome aboard.' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ number, status: 'accepted', applying: true, reason: 'Welcome aboard.', decidedBy: null, failedActions: [] });

    expect(await applied(guild, key, number)).toMatchObject({ status: 'accepted', applying: false, failedActions: [] });
    expect((await findSubmission(db(), guild.id, number))!.workflowStartedAt).not.toBeNull();
    expect(await rolesOf(guild.id, userId)).toEqual([guild.roles.helper]);
    const [dm] = await listPlatformDirectMessages(db(), guild.id, userId);
    expect(dm!.content).toContain('accepted');
    expect(dm!.content).toContain('Welcome aboard.');
    expect(await contentsIn(guild.id, announce)).toEqual([`Welcome <@${userId}>: your application "Staff application" was accepted!`]);
    // Filed without its review message (as when the bot stopped before posting it): the decision posts it.
    expect(await contentsIn(guild.id, review)).toEqual([reviewOf(number, userId, 'accepted through the API (Welcome aboard.)')]);
  });

  it('denied: no roles and no announcement; the DM names the re-apply date; the review is updated', async () => {
    const { guild, key, form, announce, review } = await applicationsGuild();
    const userId = await guild.addMember([guild.roles.member]);
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, status: 'interview', at: new Date() });

    expect((await decide(guild, key, number, { decision: 'denied', reason: 'Not yet.' })).status).toBe(202);
    expect(await applied(guild, key, number)).toMatchObject({ status: 'denied', applying: false, failedActions: [] });
    const row = await findSubmission(db(), guild.id, number);
    expect(await rolesOf(guild.id, userId)).toEqual([guild.roles.member]);
    const [dm] = await listPlatformDirectMessages(db(), guild.id, userId);
    expect(dm!.content).toContain('denied');
    expect(dm!.content).toContain(`<t:${Math.floor(row!.reapplyAfter!.getTime() / 1000)}:f>`);
    expect(await messagesIn(guild.id, announce)).toEqual([]);
    expect(await contentsIn(guild.id, review)).toEqual([reviewOf(number, userId, 'denied through the API (Not yet.)')]);
  });

  it('a DM that fails is recorded in failedActions; roles, announcement and review still happen', async () => {
    const { guild, key, form, announce, review } = await applicationsGuild();
    const userId = await guild.addMember([guild.roles.member]);
    await db().updateTable('platform_members').set({ accepts_dms: false }).where('user_id', '=', userId).execute();
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });

    await decide(guild, key, number, { decision: 'accepted' });
    expect(await applied(guild, key, number)).toMatchObject({ status: 'accepted', failedActions: [{ type: 'dm', error: 'DM_FAILED' }] });
    expect(await rolesOf(guild.id, userId)).toEqual([guild.roles.helper]);
    expect(await messagesIn(guild.id, announce)).toHaveLength(1);
    expect(await messagesIn(guild.id, review)).toHaveLength(1);
  });

  it('an applicant who left: the roles fail with MEMBER_NOT_FOUND, the DM and the rest still happen', async () => {
    const { guild, key, form, announce, review } = await applicationsGuild();
    const userId = snowflake();
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });

    await decide(guild, key, number, { decision: 'accepted' });
    expect(await applied(guild, key, number)).toMatchObject({ status: 'accepted', failedActions: [{ type: 'roles', error: 'MEMBER_NOT_FOUND' }] });
    expect(await messagesIn(guild.id, announce)).toHaveLength(1);
    expect(await messagesIn(guild.id, review)).toHaveLength(1);
  });

  it('edits the review message posted at submit time (same message, now with the decision)', async () => {
    const { guild, key, form, review } = await applicationsGuild();
    const userId = await guild.addMember([guild.roles.member]);
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });
    const platform = createLocalPlatform(db());
    const posted = await postReviewMessage({ db: db(), platform }, guild.id, number);
    expect(posted).toEqual({ channelId: review, messageId: expect.any(String) });
    expect(await postReviewMessage({ db: db(), platform }, guild.id, number)).toEqual(posted);
    expect(await messagesIn(guild.id, review)).toEqual([{ id: Number(posted!.messageId), content: reviewOf(number, userId, 'pending'), edited_at: null }]);

    await decide(guild, key, number, { decision: 'denied', reason: 'Not yet.' });
    expect(await applied(guild, key, number)).toMatchObject({ status: 'denied', failedActions: [] });
    expect(await messagesIn(guild.id, review)).toEqual([
      { id: Number(posted!.messageId), content: reviewOf(number, userId, 'denied through the API (Not yet.)'), edited_at: expect.any(Date) },
    ]);
  });

  it('simulate application-submit posts the review message in the form\'s review channel', async () => {
    const { guild, form, review } = await applicationsGuild();
    const userId = await guild.addMember([guild.roles.member]);
    const res = await admin('simulate', 'application-submit', '--guild', guild.id, '--form', String(form.id), '--user', userId, '--answers', JSON.stringify(ANSWERS));
    expect(res.stderr).toBe('');
    const [message] = await messagesIn(guild.id, review);
    expect(message).toEqual({ id: expect.any(Number), content: reviewOf(1, userId, 'pending'), edited_at: null });
    expect(res.stdout).toContain(`Review message ${message!.id} posted in channel ${review}.`);
    expect(await findReviewMessage(db(), guild.id, 1)).toEqual({ channelId: review, messageId: String(message!.id) });
  });

  it('a review message deleted meanwhile is recorded as MESSAGE_NOT_FOUND; the other effects still happen', async () => {
    const { guild, key, form, announce, review } = await applicationsGuild();
    const userId = await guild.addMember([guild.roles.member]);
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });
    const posted = await postReviewMessage({ db: db(), platform: createLocalPlatform(db()) }, guild.id, number);
    await db().deleteFrom('platform_messages').where('id', '=', Number(posted!.messageId)).execute();

    await decide(guild, key, number, { decision: 'accepted' });
    expect(await applied(guild, key, number)).toMatchObject({ status: 'accepted', failedActions: [{ type: 'review', error: 'MESSAGE_NOT_FOUND' }] });
    expect(await rolesOf(guild.id, userId)).toEqual([guild.roles.helper]);
    expect(await listPlatformDirectMessages(db(), guild.id, userId)).toHaveLength(1);
    expect(await messagesIn(guild.id, announce)).toHaveLength(1);
    expect(await messagesIn(guild.id, review)).toEqual([]);
  });

  it('a form without a review channel: no review message and no failed action', async () => {
    const { guild, key } = await applicationsGuild();
    const form = await createTestForm(db(), guild.id, { title: 'Quiet form' });
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId: await guild.addMember([]), at: new Date() });
    expect(await postReviewMessage({ db: db(), platform: createLocalPlatform(db()) }, guild.id, number)).toBeUndefined();
    await decide(guild, key, number, { decision: 'accepted' });
    expect(await applied(guild, key, number)).toMatchObject({ status: 'accepted', failedActions: [] });
    expect((await findSubmission(db(), guild.id, number))!.status).toBe('accepted');
    expect(await db().selectFrom('platform_messages').select('id').where('guild_id', '=', guild.id).execute()).toEqual([]);
  });

  it('the start relay applies a decision whose workflow never started (crash after the commit), once', async () => {
    const { guild, key, form, announce } = await applicationsGuild();
    const userId = await guild.addMember([guild.roles.member]);
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });
    // The decision commits but nothing starts its workflow, as when the api dies right after its commit.
    await db()
      .transaction()
      .execute((trx) =>
        decideSubmission(trx, {
          guildId: guild.id,
          number,
          decision: 'accepted',
          reason: null,
          apiKeyId: 0,
          decidedBy: null,
          actor: { type: 'system' },
          requestId: 'crashed',
          at: new Date(Date.now() - 60_000),
        }),
      );
    const deps = { db: db(), temporal: gateway, clock: systemClock };
    expect(await relayUnstarted(deps, applicationDecisionOperation)).toBeGreaterThanOrEqual(1);
    expect(await applied(guild, key, number)).toMatchObject({ status: 'accepted', failedActions: [] });
    await relayUnstarted(deps, applicationDecisionOperation);
    await gateway.client.workflow.getHandle(applicationDecisionWorkflowId(guild.id, number)).result();
    expect(await messagesIn(guild.id, announce)).toHaveLength(1);
    expect(await listPlatformDirectMessages(db(), guild.id, userId)).toHaveLength(1);
  });
});
