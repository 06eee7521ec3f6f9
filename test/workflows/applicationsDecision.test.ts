import { describe, expect, it } from 'vitest';
import { findSubmission } from '../../db/applications/submissions.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { applicationDecisionOperation } from '../../src/applications/applicationDecisionOperation.js';
import { decideSubmission } from '../../src/applications/decideSubmission.js';
import { applicationDecisionWorkflowId } from '../../src/applications/ids.js';
import { systemClock } from '../../src/core/clock.js';
import { relayUnstarted } from '../../src/core/temporal/operation.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { createTestForm, fileTestSubmission } from '../harness/applications.js';
import { eventually } from '../harness/eventually.js';
import { bearer, createTestKey, snowflake, type TestGuild } from '../harness/fixtures.js';
import { createModerationGuild } from '../harness/moderationGuild.js';

const { db, app, gateway } = useWorkflowTestBed();

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
  db().selectFrom('platform_messages').select('content').where('guild_id', '=', guildId).where('channel_id', '=', channelId).execute();
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
    expect((await messagesIn(guild.id, announce)).map((m) => m.content)).toEqual([`Welcome <@${userId}>: your application "Staff application" was accepted!`]);
    expect((await messagesIn(guild.id, review)).map((m) => m.content)).toEqual([
      `Application #${number} by <@${userId}>: accepted through the API (Welcome aboard.).`,
    ]);
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
    expect(dm!.content).toContain(row!.reapplyAfter!.toISOString());
    expect(await messagesIn(guild.id, announce)).toEqual([]);
    expect((await messagesIn(guild.id, review)).map((m) => m.content)).toEqual([`Application #${number} by <@${userId}>: denied through the API (Not yet.).`]);
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
