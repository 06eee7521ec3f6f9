import { describe, expect, it } from 'vitest';
import { findPlatformMember } from '../../db/platform/local.js';
import { banPlatformUser } from '../../db/platform/moderation.js';
import { snowflake } from '../harness/fixtures.js';
import { cliGuild } from './cli.js';
import { useSimulateBed } from './simulateBed.js';

const NOW = new Date('2026-11-22T10:00:00Z');
const { database, admin, eventsOf, auditOf, allEvents } = useSimulateBed(NOW);

describe('simulate --help', () => {
  it('lists the bot actions, and each one its flags', async () => {
    const group = await admin('simulate', '--help');
    expect(group.code).toBe(0);
    for (const name of ['member-join', 'member-leave', 'level-activity', 'appeal-file']) expect(group.stdout).toContain(`simulate ${name} --guild ID --user ID`);
    expect((await admin('--help')).stdout).toMatch(/^ {2}simulate +member-join\|member-leave\|level-activity\|appeal-file/m);
    const command = await admin('simulate', 'level-activity', '--help');
    expect(command.code).toBe(0);
    expect(command.stdout).toContain('Usage: npm run admin -- simulate level-activity --guild ID --user ID [--messages N] [--voice-minutes M] [--channel ID] [--operator NAME] [--json]');
    expect(command.stdout).toContain("at the server's XP per message and per voice minute");
  });

  it('refuses an unknown simulation with exit code 2', async () => {
    const res = await admin('simulate', 'no-such-action', '--json');
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
