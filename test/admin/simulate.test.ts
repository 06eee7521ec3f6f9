import { describe, expect, it } from 'vitest';
import { addLevelReward, findLevelMember, saveLevelSettings } from '../../db/levels/members.js';
import { findPlatformMember, upsertPlatformChannels } from '../../db/platform/local.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { banPlatformUser } from '../../db/platform/moderation.js';
import { fixedClock } from '../../src/core/clock.js';
import { EVENT_DATA_SCHEMAS } from '../../src/events/contract.js';
import type { EventDataByType, EventType } from '../../src/events/eventTypes.js';
import { recordCase } from '../../src/moderation/recordCase.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { cli, cliGuild } from './cli.js';

const NOW = new Date('2026-11-22T10:00:00Z');
const database = useTestDatabase();
const clock = fixedClock(NOW);
const admin = cli(() => database.db, clock);

/** The guild's stored events of one type, oldest first, with data checked (strictly) against the documented schema. */
async function eventsOf<T extends EventType>(guildId: string, type: T) {
  const rows = await database.db.selectFrom('events').selectAll().where('guild_id', '=', guildId).where('type', '=', type).orderBy('seq').execute();
  return rows.map((row) => ({ id: row.id, createdAt: row.created_at, data: EVENT_DATA_SCHEMAS[type].strict().parse(row.data) as EventDataByType[T] }));
}

const auditOf = (guildId: string, action: string) =>
  database.db.selectFrom('audit_log').selectAll().where('guild_id', '=', guildId).where('action', '=', action).orderBy('id').execute();

const allEvents = async (guildId: string) => (await database.db.selectFrom('events').select('type').where('guild_id', '=', guildId).execute()).map((e) => e.type);

describe('simulate --help', () => {
  it('lists the bot actions, and each one its flags', async () => {
    const group = await admin('simulate', '--help');
    expect(group.code).toBe(0);
    for (const name of ['member-join', 'member-leave', 'level-activity', 'appeal-file']) expect(group.stdout).toContain(`simulate ${name} --guild ID --user ID`);
    expect((await admin('--help')).stdout).toMatch(/^ {2}simulate +member-join\|member-leave\|level-activity\|appeal-file/m);
    const command = await admin('simulate', 'level-activity', '--help');
    expect(command.code).toBe(0);
    expect(command.stdout).toContain('Usage: npm run admin -- simulate level-activity --guild ID --user ID [--messages N] [--voice-minutes M] [--operator NAME] [--json]');
    expect(command.stdout).toContain('20 a message, 10 a voice minute');
  });

  it('refuses an unknown simulation with exit code 2', async () => {
    const res = await admin('simulate', 'ticket-open', '--json');
    expect(res.code).toBe(2);
    expect(res.error()).toEqual({ error: 'UNKNOWN_COMMAND', message: expect.stringContaining('member-join, member-leave, level-activity, appeal-file') });
  });
});

describe('simulate member-join', () => {
  it('adds the member with the audit row and members.joined, and prints the event (JSON)', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [user, inviter, role] = [snowflake(), snowflake(), snowflake()];
    const res = await admin('simulate', 'member-join', '--guild', id, '--user', user, '--username', 'zoe', '--roles', role, '--inviter', inviter, '--invite-code', 'summer24', '--json');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);

    expect(await findPlatformMember(database.db, id, user)).toMatchObject({ username: 'zoe', bot: false, role_ids: [role], joined_at: NOW });
    const audit = await auditOf(id, 'members.join');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_type: 'operator', actor_id: 'alice', target_type: 'member', target_id: user });

    const events = await eventsOf(id, 'members.joined');
    expect(events).toHaveLength(1);
    const data = { userId: user, username: 'zoe', bot: false, inviterId: inviter, inviteCode: 'summer24', joinedAt: NOW.toISOString() };
    expect(events[0]).toEqual({ id: expect.stringMatching(/^evt_/), createdAt: NOW, data });
    expect(res.json()).toEqual({
      userId: user,
      username: 'zoe',
      bot: false,
      roles: [role],
      inviterId: inviter,
      inviteCode: 'summer24',
      joinedAt: NOW.toISOString(),
      events: [{ id: events[0]!.id, type: 'members.joined', createdAt: NOW.toISOString(), data }],
      // No Temporal given to this CLI: the worker's start relay starts the fan-out.
      fanout: 'relay',
    });
  });

  it('says what happened in text, defaulting username, inviter and invite code', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const user = snowflake();
    const res = await admin('simulate', 'member-join', '--guild', id, '--user', user, '--bot');
    expect(res.code).toBe(0);
    const [event] = await eventsOf(id, 'members.joined');
    expect(event!.data).toEqual({ userId: user, username: `user${user.slice(-4)}`, bot: true, inviterId: null, inviteCode: null, joinedAt: NOW.toISOString() });
    expect(res.stdout.split('\n')).toEqual([
      `User ${user} (user${user.slice(-4)}) joined guild ${id}.`,
      `Event members.joined ${event!.id}: fan-out left to the worker's start relay (Temporal not reachable from here; it starts within seconds once a worker runs).`,
    ]);
  });

  it('emits nothing when the Members feature is off (the member still joins)', async () => {
    const { id } = await cliGuild(admin, { features: 'levels' });
    const user = snowflake();
    const res = await admin('simulate', 'member-join', '--guild', id, '--user', user, '--json');
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ userId: user, events: [], fanout: 'none' });
    expect(await findPlatformMember(database.db, id, user)).toBeDefined();
    expect(await allEvents(id)).toEqual([]);
    expect((await admin('simulate', 'member-join', '--guild', id, '--user', snowflake())).stdout).toContain('No event: the Members feature is off in this guild.');
  });

  it('refuses a member who is already there, a banned user and an unknown guild (exit 1), changing nothing', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [member, banned] = [snowflake(), snowflake()];
    await admin('member', 'add', '--guild', id, '--user', member);
    await banPlatformUser(database.db, { guildId: id, userId: banned, reason: 'spam' });
    const before = await allEvents(id);

    const again = await admin('simulate', 'member-join', '--guild', id, '--user', member, '--json');
    expect(again.code).toBe(1);
    expect(again.error()).toEqual({ error: 'ALREADY_MEMBER', message: `User ${member} is already a member of guild ${id}.` });
    const bannedJoin = await admin('simulate', 'member-join', '--guild', id, '--user', banned, '--json');
    expect(bannedJoin.code).toBe(1);
    expect(bannedJoin.error()).toEqual({ error: 'BANNED', message: `User ${banned} is banned from guild ${id}.` });
    expect(await findPlatformMember(database.db, id, banned)).toBeUndefined();
    const unknown = snowflake();
    const noGuild = await admin('simulate', 'member-join', '--guild', unknown, '--user', member, '--json');
    expect(noGuild.code).toBe(1);
    expect(noGuild.error()).toEqual({ error: 'GUILD_NOT_FOUND', message: `Guild ${unknown} does not exist.` });
    expect(await allEvents(id)).toEqual(before);
  });

  it('refuses a wrong command line with exit code 2', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const missing = await admin('simulate', 'member-join', '--guild', id, '--json');
    expect(missing.code).toBe(2);
    expect(missing.error()).toEqual({ error: 'MISSING_FLAG', message: '`simulate member-join` needs --user ID.' });
    const badId = await admin('simulate', 'member-join', '--guild', id, '--user', '42', '--json');
    expect(badId.code).toBe(2);
    expect(badId.error()).toEqual({ error: 'INVALID_ARGUMENT', message: '--user must be a snowflake id (17 to 20 digits), got "42".' });
    const badInviter = await admin('simulate', 'member-join', '--guild', id, '--user', snowflake(), '--inviter', 'me', '--json');
    expect(badInviter.code).toBe(2);
    expect(badInviter.error().error).toBe('INVALID_ARGUMENT');
    const unknownFlag = await admin('simulate', 'member-join', '--guild', id, '--user', snowflake(), '--reason', 'x', '--json');
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.error().error).toBe('UNKNOWN_FLAG');
  });
});

describe('simulate member-leave', () => {
  it('removes the member with the audit row and members.left (reason left), and prints the event (JSON)', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const user = snowflake();
    await admin('simulate', 'member-join', '--guild', id, '--user', user, '--username', 'zoe');
    const res = await admin('simulate', 'member-leave', '--guild', id, '--user', user, '--operator', 'bob', '--json');
    expect(res.code).toBe(0);
    expect(await findPlatformMember(database.db, id, user)).toBeUndefined();
    expect(await auditOf(id, 'members.leave')).toMatchObject([{ actor_type: 'operator', actor_id: 'bob', target_id: user }]);
    const events = await eventsOf(id, 'members.left');
    const data = { userId: user, username: 'zoe', reason: 'left', leftAt: NOW.toISOString() };
    expect(events).toEqual([{ id: expect.stringMatching(/^evt_/), createdAt: NOW, data }]);
    expect(res.json()).toEqual({
      userId: user,
      username: 'zoe',
      reason: 'left',
      leftAt: NOW.toISOString(),
      events: [{ id: events[0]!.id, type: 'members.left', createdAt: NOW.toISOString(), data }],
      fanout: 'relay',
    });
  });

  it('refuses a user who is not a member (exit 1), and emits nothing with the Members feature off', async () => {
    const { id } = await cliGuild(admin, { features: 'bank' });
    const user = snowflake();
    const res = await admin('simulate', 'member-leave', '--guild', id, '--user', user, '--json');
    expect(res.code).toBe(1);
    expect(res.error()).toEqual({ error: 'MEMBER_NOT_FOUND', message: `User ${user} is not a member of guild ${id}.` });
    await admin('member', 'add', '--guild', id, '--user', user);
    const left = await admin('simulate', 'member-leave', '--guild', id, '--user', user);
    expect(left.stdout.split('\n')).toEqual([`Member ${user} (user${user.slice(-4)}) left guild ${id}.`, 'No event: the Members feature is off in this guild.']);
    expect(await allEvents(id)).toEqual([]);
  });
});

describe('member add and member remove', () => {
  it('emit members.joined for a new member only, and members.left on removal', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const user = snowflake();
    expect((await admin('member', 'add', '--guild', id, '--user', user, '--username', 'zoe', '--json')).json()).toEqual({ userId: user, username: 'zoe', bot: false, roles: [] });
    // Replacing the member's details is no join.
    await admin('member', 'add', '--guild', id, '--user', user, '--username', 'zoe2');
    expect((await eventsOf(id, 'members.joined')).map((e) => e.data)).toEqual([
      { userId: user, username: 'zoe', bot: false, inviterId: null, inviteCode: null, joinedAt: NOW.toISOString() },
    ]);
    expect((await auditOf(id, 'members.update')).map((a) => a.target_id)).toEqual([user]);
    expect((await admin('member', 'remove', '--guild', id, '--user', user, '--json')).json()).toEqual({ userId: user, removed: true });
    expect((await eventsOf(id, 'members.left')).map((e) => e.data)).toEqual([{ userId: user, username: 'zoe2', reason: 'left', leftAt: NOW.toISOString() }]);
  });
});

describe('simulate level-activity', () => {
  it('counts messages and voice minutes into XP (20 and 10), without an event below the next level', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const user = snowflake();
    await admin('member', 'add', '--guild', id, '--user', user);
    const res = await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--messages', '3', '--voice-minutes', '2', '--json');
    expect(res.stderr).toBe('');
    expect(res.json()).toEqual({
      userId: user,
      xpEarned: 80,
      xp: 80,
      previousLevel: 0,
      level: 0,
      messages: 3,
      voiceMinutes: 2,
      rolesAdded: [],
      rolesRemoved: [],
      announced: false,
      events: [],
      fanout: 'none',
    });
    expect(await findLevelMember(database.db, id, user)).toMatchObject({ xp: 80, messages: 3, voiceMinutes: 2, lastXpAt: NOW });
    expect(await auditOf(id, 'levels.activity')).toMatchObject([
      { actor_type: 'operator', actor_id: 'alice', target_id: user, data: { messages: 3, voiceMinutes: 2, xpEarned: 80, previousLevel: 0, level: 0 } },
    ]);
    expect(await eventsOf(id, 'levels.levelUp')).toEqual([]);
  });

  it('emits levels.levelUp with source activity on a new level, grants the reward roles and announces it', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [user, announce, rewardRole] = [snowflake(), snowflake(), snowflake()];
    await upsertPlatformChannels(database.db, id, [{ channelId: announce, name: 'level-ups', type: 'text', position: 0 }]);
    await saveLevelSettings(database.db, id, { announceChannelId: announce, announceTemplate: 'GG {user}, level {level}!', removePreviousRewards: false });
    await addLevelReward(database.db, id, { level: 2, roleId: rewardRole });
    await admin('member', 'add', '--guild', id, '--user', user);
    await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--messages', '4');

    // 80 XP so far; 18 more messages make 440 XP: level 2 (255 XP) but not 3 (475).
    const res = await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--messages', '18', '--json');
    expect(res.code).toBe(0);
    const events = await eventsOf(id, 'levels.levelUp');
    const data = { userId: user, level: 2, previousLevel: 0, source: 'activity' };
    expect(events).toEqual([{ id: expect.stringMatching(/^evt_/), createdAt: NOW, data }]);
    expect(res.json()).toEqual({
      userId: user,
      xpEarned: 360,
      xp: 440,
      previousLevel: 0,
      level: 2,
      messages: 22,
      voiceMinutes: 0,
      rolesAdded: [rewardRole],
      rolesRemoved: [],
      announced: true,
      events: [{ id: events[0]!.id, type: 'levels.levelUp', createdAt: NOW.toISOString(), data }],
      fanout: 'relay',
    });
    expect((await findPlatformMember(database.db, id, user))!.role_ids).toEqual([rewardRole]);
    expect((await listPlatformMessages(database.db, id, announce)).map((m) => m.content)).toEqual([`GG <@${user}>, level 2!`]);

    const text = await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--voice-minutes', '4');
    expect(text.stdout.split('\n')).toEqual([
      `Member ${user} earned 40 XP: 480 XP, level 3 (was 2); 22 messages, 4 voice minutes in all.`,
      'Level-up announced in the level-up channel.',
      expect.stringMatching(/^Event levels\.levelUp evt_\S+: fan-out left/),
    ]);
  });

  it('refuses an unknown member, a bot account and a guild without Levels (exit 1), changing nothing', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [stranger, bot] = [snowflake(), snowflake()];
    await admin('member', 'add', '--guild', id, '--user', bot, '--bot');
    const unknown = await admin('simulate', 'level-activity', '--guild', id, '--user', stranger, '--messages', '5', '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.error()).toEqual({ error: 'MEMBER_NOT_FOUND', message: 'The user is not a member of this server.' });
    const botRes = await admin('simulate', 'level-activity', '--guild', id, '--user', bot, '--messages', '5', '--json');
    expect(botRes.code).toBe(1);
    expect(botRes.error()).toEqual({ error: 'BOT_ACCOUNT', message: 'The target is a bot account.' });

    const off = await cliGuild(admin, { features: 'bank' });
    const member = snowflake();
    await admin('member', 'add', '--guild', off.id, '--user', member);
    const disabled = await admin('simulate', 'level-activity', '--guild', off.id, '--user', member, '--messages', '5', '--json');
    expect(disabled.code).toBe(1);
    expect(disabled.error()).toEqual({ error: 'FEATURE_DISABLED', message: `The Levels feature is disabled in guild ${off.id}.` });
    const noGuild = await admin('simulate', 'level-activity', '--guild', snowflake(), '--user', member, '--messages', '5', '--json');
    expect(noGuild.code).toBe(1);
    expect(noGuild.error().error).toBe('GUILD_NOT_FOUND');
    expect(await database.db.selectFrom('level_members').selectAll().where('guild_id', 'in', [id, off.id]).execute()).toEqual([]);
  });

  it.each([
    [[], 'MISSING_FLAG', '`simulate level-activity` needs --messages N or --voice-minutes M (or both).'],
    [['--messages', 'ten'], 'INVALID_ARGUMENT', '--messages must be a whole number from 0 to 100,000, got "ten".'],
    [['--messages=-1'], 'INVALID_ARGUMENT', '--messages must be a whole number from 0 to 100,000, got "-1".'],
    [['--voice-minutes', '100001'], 'INVALID_ARGUMENT', '--voice-minutes must be a whole number from 0 to 100,000, got "100001".'],
    [['--messages', '0', '--voice-minutes', '0'], 'INVALID_ARGUMENT', 'Nothing to count: --messages and --voice-minutes are both 0.'],
    [['--messages'], 'INVALID_ARGUMENT', '--messages needs a value (`simulate level-activity`).'],
  ])('refuses %j with exit code 2 (%s)', async (args, error, message) => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const user = snowflake();
    await admin('member', 'add', '--guild', id, '--user', user);
    const res = await admin('simulate', 'level-activity', '--guild', id, '--user', user, ...args, '--json');
    expect(res.code).toBe(2);
    expect(res.error()).toEqual({ error, message });
    expect(await findLevelMember(database.db, id, user)).toBeUndefined();
  });
});

describe('simulate appeal-file', () => {
  const ANSWERS = [
    { id: 'why', type: 'paragraph', label: 'Why were you banned?', value: 'I posted links.' },
    { id: 'agree', type: 'checkbox', label: 'I read the rules', value: true },
  ];

  /** A guild where `userId` was banned by a moderation case (case number returned). */
  async function bannedUser(features = 'all') {
    const { id } = await cliGuild(admin, { features });
    const userId = snowflake();
    await banPlatformUser(database.db, { guildId: id, userId, reason: 'platform reason' });
    const { number } = await database.db.transaction().execute((trx) =>
      recordCase(
        trx,
        {
          guildId: id,
          action: 'ban',
          userId,
          userTag: 'linky',
          moderatorId: snowflake(),
          reason: 'Scam links',
          durationSeconds: null,
          evidence: [],
          source: 'command',
          active: false,
          expiresAt: null,
          dmStatus: 'sent',
          apiKey: null,
          operationId: null,
          createdAt: new Date(NOW.getTime() - 86_400_000),
        },
        { type: 'system' },
      ),
    );
    return { guildId: id, userId, caseNumber: number };
  }

  const file = (guildId: string, userId: string, answers: unknown = ANSWERS, ...extra: string[]) =>
    admin('simulate', 'appeal-file', '--guild', guildId, '--user', userId, '--answers', typeof answers === 'string' ? answers : JSON.stringify(answers), ...extra);

  it('files the appeal about the latest ban case with its audit row and appeals.submitted (JSON)', async () => {
    const { guildId, userId, caseNumber } = await bannedUser();
    const res = await file(guildId, userId, ANSWERS, '--json');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const appeal = await database.db.selectFrom('appeals').selectAll().where('guild_id', '=', guildId).executeTakeFirstOrThrow();
    expect(appeal).toMatchObject({
      number: 1,
      user_id: userId,
      user_tag: 'linky',
      status: 'open',
      ban_case_number: caseNumber,
      ban_reason: 'Scam links',
      answers: ANSWERS,
      created_at: NOW,
      last_activity_at: NOW,
    });
    expect(await auditOf(guildId, 'appeals.file')).toMatchObject([{ actor_type: 'operator', actor_id: 'alice', target_type: 'appeal', target_id: '1' }]);
    const events = await eventsOf(guildId, 'appeals.submitted');
    const data = { appealNumber: 1, userId, banCaseNumber: caseNumber, answers: ANSWERS, createdAt: NOW.toISOString() };
    expect(events).toEqual([{ id: expect.stringMatching(/^evt_/), createdAt: NOW, data }]);
    expect(res.json()).toEqual({
      number: 1,
      userId,
      userTag: 'linky',
      banCaseNumber: caseNumber,
      banReason: 'Scam links',
      answers: ANSWERS,
      status: 'open',
      createdAt: NOW.toISOString(),
      events: [{ id: events[0]!.id, type: 'appeals.submitted', createdAt: NOW.toISOString(), data }],
      fanout: 'relay',
    });
  });

  it('takes the platform ban reason when no ban case exists, and says so in text', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const userId = snowflake();
    await banPlatformUser(database.db, { guildId: id, userId, reason: 'banned by hand' });
    const res = await file(id, userId);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe(`User ${userId} filed appeal 1 in guild ${id}.`);
    expect(await database.db.selectFrom('appeals').select(['ban_case_number', 'ban_reason', 'user_tag']).where('guild_id', '=', id).execute()).toEqual([
      { ban_case_number: null, ban_reason: 'banned by hand', user_tag: null },
    ]);
    expect((await eventsOf(id, 'appeals.submitted'))[0]!.data.banCaseNumber).toBeNull();
  });

  it('allows one appeal waiting for a decision, and none during the re-appeal cooldown after a rejection (exit 1)', async () => {
    const { guildId, userId } = await bannedUser();
    expect((await file(guildId, userId)).code).toBe(0);
    const second = await file(guildId, userId, ANSWERS, '--json');
    expect(second.code).toBe(1);
    expect(second.error()).toEqual({ error: 'APPEAL_ALREADY_OPEN', message: `User ${userId} already has appeal 1 waiting for a decision.` });

    // Staff asked a question: still waiting.
    await database.db.updateTable('appeals').set({ status: 'question' }).where('guild_id', '=', guildId).execute();
    expect((await file(guildId, userId, ANSWERS, '--json')).error().error).toBe('APPEAL_ALREADY_OPEN');

    const cooldownEnd = new Date(NOW.getTime() + 3_600_000);
    await database.db.updateTable('appeals').set({ status: 'rejected', decided_at: NOW, reappeal_after: cooldownEnd }).where('guild_id', '=', guildId).execute();
    const cooling = await file(guildId, userId, ANSWERS, '--json');
    expect(cooling.code).toBe(1);
    expect(cooling.error()).toEqual({
      error: 'REAPPEAL_COOLDOWN',
      message: `User ${userId} may appeal again from ${cooldownEnd.toISOString()} (re-appeal cooldown after a rejection).`,
    });
    expect(await eventsOf(guildId, 'appeals.submitted')).toHaveLength(1);

    await database.db.updateTable('appeals').set({ reappeal_after: new Date(NOW.getTime() - 1000) }).where('guild_id', '=', guildId).execute();
    const again = await file(guildId, userId, ANSWERS, '--json');
    expect(again.code).toBe(0);
    expect(again.json().number).toBe(2);
  });

  it('refuses a user who is not banned, and a guild without Ban appeals (exit 1)', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const member = snowflake();
    await admin('member', 'add', '--guild', id, '--user', member);
    const notBanned = await file(id, member, ANSWERS, '--json');
    expect(notBanned.code).toBe(1);
    expect(notBanned.error()).toEqual({ error: 'NOT_BANNED', message: `User ${member} is not banned from guild ${id}; only banned users appeal.` });

    const off = await bannedUser('bank,moderation');
    const disabled = await file(off.guildId, off.userId, ANSWERS, '--json');
    expect(disabled.code).toBe(1);
    expect(disabled.error()).toEqual({ error: 'FEATURE_DISABLED', message: `The Ban appeals feature is disabled in guild ${off.guildId}.` });
    expect(await database.db.selectFrom('appeals').selectAll().where('guild_id', 'in', [id, off.guildId]).execute()).toEqual([]);
  });

  it.each([
    ['not JSON', '[{"id":', /^--answers must be JSON \(/],
    ['not an array', { id: 'why' }, /^--answers must be an array of 1 to 25 \{id, type, label, value\}: /],
    ['empty', [], /^--answers must be an array of 1 to 25/],
    ['an answer without a value', [{ id: 'why', type: 'paragraph', label: 'Why?' }], /\[0\.value\] a value is required/],
    ['an unknown field', [{ ...ANSWERS[0], extra: 1 }], /^--answers must be an array/],
    ['repeated ids', [ANSWERS[0], ANSWERS[0]], /answer ids must be unique/],
  ])('refuses answers that are %s with exit code 2', async (_, answers, message) => {
    const { guildId, userId } = await bannedUser();
    const res = await file(guildId, userId, answers, '--json');
    expect(res.code).toBe(2);
    expect(res.error()).toEqual({ error: 'INVALID_ARGUMENT', message: expect.stringMatching(message) });
  });

  it('needs --answers (exit code 2)', async () => {
    const { guildId, userId } = await bannedUser();
    const res = await admin('simulate', 'appeal-file', '--guild', guildId, '--user', userId, '--json');
    expect(res.code).toBe(2);
    expect(res.error()).toEqual({ error: 'MISSING_FLAG', message: '`simulate appeal-file` needs --answers JSON.' });
  });
});
