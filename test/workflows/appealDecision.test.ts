import { describe, expect, it } from 'vitest';
import { findAppeal } from '../../db/appeals/appeals.js';
import { saveAppealSettings } from '../../db/appeals/settings.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { banPlatformUser, findPlatformBan, listPlatformDirectMessages } from '../../db/platform/moderation.js';
import { EVENT_DATA_SCHEMAS } from '../../src/events/contract.js';
import type { Feature } from '../../src/core/features.js';
import { FEATURES } from '../../src/core/features.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { fileTestAppeal } from '../harness/appeals.js';
import { eventually } from '../harness/eventually.js';
import { bearer, createTestKey, snowflake, type TestGuild } from '../harness/fixtures.js';
import { createModerationGuild } from '../harness/moderationGuild.js';

const { db, app } = useWorkflowTestBed();

async function appealGuild(features: Feature[] = [...FEATURES]) {
  const guild = await createModerationGuild(db(), { features });
  const { key, id: keyId } = await createTestKey(db(), guild, { scopes: ['appeals:read', 'appeals:write'], createdBy: guild.moderatorId, name: 'appeals key' });
  const general = snowflake();
  await upsertPlatformChannels(db(), guild.id, [{ channelId: general, name: 'general', type: 'text', position: 0 }]);
  return { guild, key, keyId, general };
}

async function bannedAppellant(guild: TestGuild) {
  const userId = snowflake();
  await banPlatformUser(db(), { guildId: guild.id, userId, reason: 'spam' });
  const { number } = await fileTestAppeal(db(), guild.id, {
    userId,
    userTag: 'appellant',
    banReason: 'spam',
    answers: [{ id: 'why', type: 'paragraph', label: 'Why should we unban you?', value: 'I changed.' }],
    at: new Date(),
  });
  return { userId, number };
}

const decide = (guild: TestGuild, key: string, number: number, verb: 'approve' | 'reject', body?: unknown) =>
  app.http('POST', `/guilds/${guild.id}/appeals/${number}/${verb}`, { headers: bearer(key), body });

async function applied(guild: TestGuild, key: string, number: number) {
  const res = await eventually(
    () => app.http('GET', `/guilds/${guild.id}/appeals/${number}`, { headers: bearer(key) }),
    (r) => r.body?.applying === false,
  );
  return res.body;
}

describe('appeal decisions', () => {
  it('approve: unbans with an unban case, creates a single-use invite and DMs it; applying turns false', async () => {
    const { guild, key, keyId, general } = await appealGuild();
    const { userId, number } = await bannedAppellant(guild);
    const res = await decide(guild, key, number, 'approve', { reason: 'Second chance.' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ number, status: 'approved', applying: true, reason: 'Second chance.', decidedBy: null });

    const done = await applied(guild, key, number);
    expect(done).toMatchObject({ status: 'approved', applying: false, failedAction: null });
    expect(await findPlatformBan(db(), guild.id, userId)).toBeUndefined();
    expect((await findAppeal(db(), guild.id, number))!.workflowStartedAt).not.toBeNull();
    const invites = await db().selectFrom('platform_invites').selectAll().where('guild_id', '=', guild.id).execute();
    expect(invites).toHaveLength(1);
    expect(invites[0]).toMatchObject({ channel_id: general, max_uses: 1 });
    const [dm] = await listPlatformDirectMessages(db(), guild.id, userId);
    expect(dm!.content).toContain('approved');
    expect(dm!.content).toContain('Second chance.');
    expect(dm!.content).toContain(invites[0]!.code);

    const cases = await db().selectFrom('moderation_cases').selectAll().where('guild_id', '=', guild.id).execute();
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({ action: 'unban', user_id: userId, source: 'api', moderator_id: guild.moderatorId, api_key_id: keyId });
    const events = await db().selectFrom('events').select(['type', 'data']).where('guild_id', '=', guild.id).orderBy('seq').execute();
    expect(events.map((e) => e.type)).toEqual(['appeals.submitted', 'moderation.caseCreated']);
    expect(EVENT_DATA_SCHEMAS['appeals.submitted'].parse(events[0]!.data)).toMatchObject({ appealNumber: number, userId });
    expect(EVENT_DATA_SCHEMAS['moderation.caseCreated'].parse(events[1]!.data)).toMatchObject({ action: 'unban', userId });
  });

  it('approve without Moderation: unbans without recording a case', async () => {
    const { guild, key } = await appealGuild(['appeals']);
    const { userId, number } = await bannedAppellant(guild);
    await decide(guild, key, number, 'approve');
    expect(await applied(guild, key, number)).toMatchObject({ failedAction: null });
    expect(await findPlatformBan(db(), guild.id, userId)).toBeUndefined();
    expect(await db().selectFrom('moderation_cases').selectAll().where('guild_id', '=', guild.id).execute()).toEqual([]);
  });

  it('approve: a DM that cannot be delivered shows as failedAction dm; the appeal stays approved', async () => {
    const { guild, key } = await appealGuild();
    // A user who shares the server and closed their DMs (the appeal is about a ban lifted meanwhile).
    const userId = await guild.addMember();
    await db().updateTable('platform_members').set({ accepts_dms: false }).where('user_id', '=', userId).execute();
    const { number } = await fileTestAppeal(db(), guild.id, { userId, at: new Date() });
    await decide(guild, key, number, 'approve');
    expect(await applied(guild, key, number)).toMatchObject({ status: 'approved', failedAction: { type: 'dm', error: 'DM_FAILED' } });
  });

  it('approve: no channel to invite to shows as failedAction invite', async () => {
    const guild = await createModerationGuild(db());
    const { key } = await createTestKey(db(), guild, { scopes: ['appeals:read', 'appeals:write'], createdBy: guild.moderatorId });
    const { userId, number } = await bannedAppellant(guild);
    await decide(guild, key, number, 'approve');
    expect(await applied(guild, key, number)).toMatchObject({ status: 'approved', failedAction: { type: 'invite', error: 'NO_INVITE_CHANNEL' } });
    expect(await findPlatformBan(db(), guild.id, userId)).toBeUndefined();
  });

  it('reject: DMs the rejection with the cooldown, or nothing when the settings say so', async () => {
    const { guild, key } = await appealGuild();
    const first = await bannedAppellant(guild);
    const res = await decide(guild, key, first.number, 'reject', { reason: 'Not yet.' });
    expect(res.status).toBe(202);
    expect(await applied(guild, key, first.number)).toMatchObject({ status: 'rejected', failedAction: null });
    const row = await findAppeal(db(), guild.id, first.number);
    const [dm] = await listPlatformDirectMessages(db(), guild.id, first.userId);
    expect(dm!.content).toContain('rejected');
    expect(dm!.content).toContain(`<t:${Math.floor(row!.reappealAfter!.getTime() / 1000)}:f>`);
    expect(await findPlatformBan(db(), guild.id, first.userId)).toBeDefined();

    await saveAppealSettings(db(), guild.id, { rejectionDm: false, reappealCooldownSeconds: 3600, inviteChannelId: null });
    const second = await bannedAppellant(guild);
    await decide(guild, key, second.number, 'reject');
    expect(await applied(guild, key, second.number)).toMatchObject({ status: 'rejected', failedAction: null });
    expect(await listPlatformDirectMessages(db(), guild.id, second.userId)).toEqual([]);
  });
});
