import { describe, expect, it } from 'vitest';
import { saveEscalationRule, saveModerationSettings } from '../../db/moderation/settings.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { deletePlatformMember, findPlatformMember, upsertPlatformMember } from '../../db/platform/local.js';
import { findPlatformBan, listPlatformDirectMessages, listPlatformModerationLog, setPlatformAcceptsDms } from '../../db/platform/moderation.js';
import { EVENT_DATA_SCHEMAS } from '../../src/events/contract.js';
import { joinThroughInvite } from '../../src/guild/joinThroughInvite.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { eventually } from '../harness/eventually.js';
import { bearer, createTestKey, snowflake } from '../harness/fixtures.js';
import { createModerationGuild, type ModerationGuild } from '../harness/moderationGuild.js';

const { db, app } = useWorkflowTestBed();

const act = (g: ModerationGuild, action: string, userId: string, body?: unknown, key = g.key) =>
  app.http('POST', `/guilds/${g.id}/moderation/users/${userId}/${action}`, { headers: bearer(key), body });

async function finished(g: ModerationGuild, actionId: string, key = g.key) {
  const res = await eventually(
    () => app.http('GET', `/guilds/${g.id}/moderation/actions/${actionId}`, { headers: bearer(key) }),
    (r) => r.body?.status === 'done' || r.body?.status === 'failed',
  );
  return res.body;
}

async function run(g: ModerationGuild, action: string, userId: string, body?: unknown) {
  const res = await act(g, action, userId, body);
  expect(res.status).toBe(202);
  return finished(g, res.body.actionId);
}

const getCase = async (g: ModerationGuild, number: number) =>
  (await app.http('GET', `/guilds/${g.id}/moderation/cases/${number}`, { headers: bearer(g.key) })).body;

const casesOf = (guildId: string) => db().selectFrom('moderation_cases').selectAll().where('guild_id', '=', guildId).orderBy('number').execute();
const eventsOf = (guildId: string) =>
  db().selectFrom('events').select(['type', 'data']).where('guild_id', '=', guildId).where('type', '=', 'moderation.caseCreated').execute();

describe('moderation actions', () => {
  it('warns: 202 pending, then done with a case made in the creator’s name, a DM, an event and a mod log line', async () => {
    const g = await createModerationGuild(db());
    const logChannel = snowflake();
    await saveModerationSettings(db(), g.id, { dmMembers: true, logChannelId: logChannel, warningExpirySeconds: null });
    const target = await g.addMember();
    const res = await act(g, 'warn', target, { reason: 'spam in #general', evidence: ['https://example.com/shot.png'] });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      actionId: expect.stringMatching(/^mda_[A-Za-z0-9_-]{16}$/),
      action: 'warn',
      userId: target,
      status: 'pending',
      caseNumber: null,
      error: null,
      requestedAt: expect.any(String),
    });
    const done = await finished(g, res.body.actionId);
    expect(done).toMatchObject({ status: 'done', caseNumber: 1, error: null });

    const detail = await getCase(g, 1);
    expect(detail).toMatchObject({
      number: 1,
      action: 'warn',
      userId: target,
      moderatorId: g.moderatorId,
      reason: 'spam in #general',
      evidence: ['https://example.com/shot.png'],
      source: 'api',
      active: true,
      expiresAt: null,
      dmStatus: 'sent',
      apiKey: { id: g.keyId, name: 'mod key' },
    });
    expect(detail.events.map((e: { type: string }) => e.type)).toEqual(['created', 'dm']);

    const dms = await listPlatformDirectMessages(db(), g.id, target);
    expect(dms).toHaveLength(1);
    expect(dms[0]!.content).toContain('spam in #general');
    const [event] = await eventsOf(g.id);
    expect(EVENT_DATA_SCHEMAS['moderation.caseCreated'].parse(event!.data)).toMatchObject({
      caseNumber: 1,
      action: 'warn',
      userId: target,
      moderatorId: g.moderatorId,
      source: 'api',
    });
    const audit = await db().selectFrom('audit_log').selectAll().where('guild_id', '=', g.id).where('action', '=', 'moderation.warn').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_type: 'api_key', api_key_id: g.keyId, actor_id: g.moderatorId, target_id: target });
    await eventually(() => listPlatformMessages(db(), g.id, logChannel), (m) => m.length > 0);
    expect((await listPlatformMessages(db(), g.id, logChannel))[0]!.content.split('\n')).toEqual([
      '**Case #1 · warn**',
      expect.stringMatching(new RegExp(`^Member: <@${target}>`)),
      `Moderator: <@${g.moderatorId}>`,
      'Reason: spam in #general',
      'Evidence: https://example.com/shot.png',
      expect.stringMatching(new RegExp(`^User ${target} · api · \\d{4}-`)),
    ]);
  });

  it('times out, then lifts the timeout: the timeout case is revoked by the untimeout case', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const timeout = await run(g, 'timeout', target, { durationSeconds: 3600, reason: 'cool down' });
    expect(timeout).toMatchObject({ status: 'done', caseNumber: 1 });
    const member = await findPlatformMember(db(), g.id, target);
    expect(member!.timed_out_until!.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    expect(await getCase(g, 1)).toMatchObject({ action: 'timeout', active: true, durationSeconds: 3600, expiresAt: member!.timed_out_until!.toISOString() });

    const untimeout = await run(g, 'untimeout', target);
    expect(untimeout).toMatchObject({ status: 'done', caseNumber: 2 });
    expect((await findPlatformMember(db(), g.id, target))!.timed_out_until).toBeNull();
    const revoked = await getCase(g, 1);
    expect(revoked).toMatchObject({ active: false, resolvedAt: expect.any(String) });
    expect(revoked.events.at(-1)).toMatchObject({ type: 'revoked', actorId: g.moderatorId, data: { byCase: 2 } });
    expect(await getCase(g, 2)).toMatchObject({ action: 'untimeout', active: false });
    expect((await listPlatformModerationLog(db(), g.id, target)).map((e) => e.action)).toEqual(['timeout', 'untimeout']);
  });

  it('kicks a member: DMed first, then removed from the server', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    expect(await run(g, 'kick', target, { reason: 'raid' })).toMatchObject({ status: 'done', caseNumber: 1 });
    expect(await findPlatformMember(db(), g.id, target)).toBeUndefined();
    expect(await getCase(g, 1)).toMatchObject({ action: 'kick', active: false, dmStatus: 'sent' });
    expect((await listPlatformModerationLog(db(), g.id, target)).map((e) => e.action)).toEqual(['kick']);
  });

  it('bans a member and a stranger, then unbans; unbanning again fails NOT_BANNED', async () => {
    const g = await createModerationGuild(db());
    const member = await g.addMember();
    const stranger = snowflake();
    expect(await run(g, 'ban', member, { reason: 'scam links', deleteMessageSeconds: 86_400 })).toMatchObject({ status: 'done' });
    expect(await run(g, 'ban', stranger)).toMatchObject({ status: 'done' });
    expect(await findPlatformMember(db(), g.id, member)).toBeUndefined();
    expect(await findPlatformBan(db(), g.id, member)).toMatchObject({ reason: 'scam links (via API key "mod key")' });
    expect(await findPlatformBan(db(), g.id, stranger)).toBeDefined();
    expect(await run(g, 'ban', stranger)).toMatchObject({ status: 'failed', error: 'ALREADY_BANNED', caseNumber: null });

    expect(await run(g, 'unban', member, { reason: 'appeal accepted' })).toMatchObject({ status: 'done', caseNumber: 3 });
    expect(await findPlatformBan(db(), g.id, member)).toBeUndefined();
    expect(await run(g, 'unban', member)).toMatchObject({ status: 'failed', error: 'NOT_BANNED', caseNumber: null });
    expect((await casesOf(g.id)).map((c) => c.action)).toEqual(['ban', 'ban', 'unban']);
  });

  it('a kick and a ban are leaves: members.left with reason kicked or banned, the invite join moved to left; a stranger banned is no leave', async () => {
    const g = await createModerationGuild(db());
    const inviter = snowflake();
    const invitedMember = async (username: string) => {
      const userId = snowflake();
      const at = new Date();
      const actor = { type: 'system' } as const;
      await db().transaction().execute((trx) => joinThroughInvite(trx, { guildId: g.id, userId, username, bot: false, roleIds: [g.roles.member], inviterId: inviter, inviteCode: 'spring', at, actor }));
      return userId;
    };
    const kicked = await invitedMember('kicked-user');
    const banned = await invitedMember('banned-user');
    const stranger = snowflake();
    expect(await run(g, 'kick', kicked, { reason: 'raid' })).toMatchObject({ status: 'done' });
    expect(await run(g, 'ban', banned, { durationSeconds: 86_400 })).toMatchObject({ status: 'done' });
    expect(await run(g, 'ban', stranger)).toMatchObject({ status: 'done' });

    const left = await db().selectFrom('events').select('data').where('guild_id', '=', g.id).where('type', '=', 'members.left').orderBy('seq').execute();
    expect(left.map((e) => e.data)).toEqual([
      { userId: kicked, username: 'kicked-user', reason: 'kicked', leftAt: expect.any(String) },
      { userId: banned, username: 'banned-user', reason: 'banned', leftAt: expect.any(String) },
    ]);
    for (const e of left) expect(EVENT_DATA_SCHEMAS['members.left'].safeParse(e.data).success).toBe(true);
    const joins = await db().selectFrom('invite_joins').select(['user_id', 'status', 'left_from']).where('guild_id', '=', g.id).orderBy('user_id').execute();
    expect(joins).toEqual(expect.arrayContaining([
      { user_id: kicked, status: 'left', left_from: 'pending' },
      { user_id: banned, status: 'left', left_from: 'pending' },
    ]));
    expect(await db().selectFrom('invite_members').select(['pending', 'left', 'total']).where('guild_id', '=', g.id).where('user_id', '=', inviter).executeTakeFirst()).toEqual({
      pending: 0,
      left: 2,
      total: 2,
    });
    const audit = await db().selectFrom('audit_log').select(['target_id', 'data']).where('guild_id', '=', g.id).where('action', '=', 'members.leave').execute();
    expect(audit).toEqual(expect.arrayContaining([
      { target_id: kicked, data: { username: 'kicked-user', reason: 'kicked' } },
      { target_id: banned, data: { username: 'banned-user', reason: 'banned' } },
    ]));
    expect(audit).toHaveLength(2);
    // The cases name them as they were before the platform removed them.
    expect((await casesOf(g.id)).map((c) => c.user_tag)).toEqual(['kicked-user', 'banned-user', null]);
  });

  it('records a ban with durationSeconds as an active tempban with its end', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    expect(await run(g, 'ban', target, { durationSeconds: 86_400 })).toMatchObject({ status: 'done' });
    expect(await getCase(g, 1)).toMatchObject({ action: 'tempban', active: true, durationSeconds: 86_400, expiresAt: expect.any(String) });
  });

  describe('refusals end failed with the code and change nothing', () => {
    it.each([
      ['the owner', 'warn', async (g: ModerationGuild) => g.ownerId, 'HIERARCHY_HIGHER'],
      ['the bot', 'kick', async (g: ModerationGuild) => g.botUserId, 'INVALID_TARGET'],
      ['the key creator', 'timeout', async (g: ModerationGuild) => g.moderatorId, 'INVALID_TARGET'],
      ['a member with an equal role', 'kick', (g: ModerationGuild) => g.addMember([g.roles.moderator]), 'HIERARCHY_HIGHER'],
      ['a member with a higher role', 'ban', (g: ModerationGuild) => g.addMember([g.roles.admin]), 'HIERARCHY_HIGHER'],
      ['a member who is not timed out', 'untimeout', (g: ModerationGuild) => g.addMember(), 'NOT_TIMED_OUT'],
      ['a user who is not banned', 'unban', async () => snowflake(), 'NOT_BANNED'],
    ])('targeting %s (%s) → %s', async (_label, action, target, code) => {
      const g = await createModerationGuild(db());
      const userId = await target(g);
      const body = action === 'warn' ? { reason: 'x' } : action === 'timeout' ? { durationSeconds: 60 } : undefined;
      expect(await run(g, action, userId, body)).toMatchObject({ status: 'failed', error: code, caseNumber: null });
      expect(await casesOf(g.id)).toEqual([]);
      expect(await listPlatformModerationLog(db(), g.id, userId)).toEqual([]);
      expect(await listPlatformDirectMessages(db(), g.id, userId)).toEqual([]);
    });

    it('refuses a target above the bot even when the creator outranks it (creator is an admin)', async () => {
      const g = await createModerationGuild(db());
      const adminId = await g.addMember([g.roles.admin]);
      const { key } = await createTestKey(db(), g, { scopes: ['moderation:write'], createdBy: adminId });
      const target = await g.addMember([g.roles.bot]);
      const res = await act(g, 'kick', target, undefined, key);
      expect(await finished(g, res.body.actionId, key)).toMatchObject({ status: 'failed', error: 'HIERARCHY_HIGHER' });
    });

    it('refuses when the creator lost the permission after creating the key, or left the server', async () => {
      const g = await createModerationGuild(db());
      const target = await g.addMember();
      await upsertPlatformMember(db(), { guildId: g.id, userId: g.moderatorId, username: 'mod', bot: false, roleIds: [g.roles.helper] });
      expect(await run(g, 'kick', target)).toMatchObject({ status: 'failed', error: 'MODERATOR_MISSING_PERMISSION' });
      // A helper may still time out: the permission is checked per action.
      expect(await run(g, 'timeout', target, { durationSeconds: 60 })).toMatchObject({ status: 'done' });
      await deletePlatformMember(db(), g.id, g.moderatorId);
      expect(await run(g, 'warn', target, { reason: 'x' })).toMatchObject({ status: 'failed', error: 'MODERATOR_MISSING_PERMISSION' });
    });

    it('refuses when the bot lacks the permission', async () => {
      const g = await createModerationGuild(db());
      await upsertPlatformMember(db(), { guildId: g.id, userId: g.botUserId, username: 'bot', bot: true, roleIds: [g.roles.helper] });
      const target = await g.addMember();
      expect(await run(g, 'ban', target)).toMatchObject({ status: 'failed', error: 'BOT_MISSING_PERMISSIONS' });
      expect(await findPlatformBan(db(), g.id, target)).toBeUndefined();
    });
  });

  describe('DM status', () => {
    it('is off when the server does not DM, failed when the member closed their DMs', async () => {
      const g = await createModerationGuild(db());
      const closed = await g.addMember();
      await setPlatformAcceptsDms(db(), g.id, closed, false);
      expect(await run(g, 'warn', closed, { reason: 'a' })).toMatchObject({ status: 'done', caseNumber: 1 });
      const failed = await getCase(g, 1);
      expect(failed.dmStatus).toBe('failed');
      expect(failed.events.at(-1)).toMatchObject({ type: 'dm', data: { status: 'failed' } });

      await saveModerationSettings(db(), g.id, { dmMembers: false, logChannelId: null, warningExpirySeconds: null });
      const open = await g.addMember();
      expect(await run(g, 'warn', open, { reason: 'b' })).toMatchObject({ status: 'done', caseNumber: 2 });
      expect((await getCase(g, 2)).dmStatus).toBe('off');
      expect(await listPlatformDirectMessages(db(), g.id, open)).toEqual([]);
    });
  });

  it('escalates the second active warning to a 1-hour timeout, as its own case by the bot', async () => {
    const g = await createModerationGuild(db());
    await saveEscalationRule(db(), g.id, { warnings: 2, action: 'timeout', durationSeconds: 3600 });
    const target = await g.addMember();
    expect(await run(g, 'warn', target, { reason: 'one' })).toMatchObject({ status: 'done', caseNumber: 1 });
    expect(await run(g, 'warn', target, { reason: 'two' })).toMatchObject({ status: 'done', caseNumber: 2 });
    const cases = await eventually(() => casesOf(g.id), (c) => c.length === 3);
    expect(cases[2]).toMatchObject({
      number: 3,
      action: 'timeout',
      source: 'escalation',
      moderator_id: g.botUserId,
      duration_seconds: 3600,
      active: true,
      api_key_id: null,
      reason: 'Automatic: 2 active warnings',
    });
    expect((await findPlatformMember(db(), g.id, target))!.timed_out_until).not.toBeNull();
    const warning = await getCase(g, 2);
    expect(warning.events.map((e: { type: string }) => e.type)).toContain('escalated');
    expect(warning.events.find((e: { type: string }) => e.type === 'escalated')).toMatchObject({ data: { caseNumber: 3, action: 'timeout' } });
    expect((await eventsOf(g.id)).map((e) => (e.data as { source: string }).source).sort()).toEqual(['api', 'api', 'escalation']);
  });
});
