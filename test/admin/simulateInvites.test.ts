import { describe, expect, it } from 'vitest';
import { findInviteCounts } from '../../db/invites/members.js';
import { findPlatformMember } from '../../db/platform/local.js';
import { snowflake } from '../harness/fixtures.js';
import { cliGuild } from './cli.js';
import { useSimulateBed } from './simulateBed.js';

const NOW = new Date('2026-11-22T10:00:00Z');
const { database, admin, eventsOf, auditOf } = useSimulateBed(NOW);

const counts = async (guildId: string, inviterId: string) => (await findInviteCounts(database.db, guildId, inviterId)) ?? null;

describe('simulate invite-join', () => {
  it('joins the member (members.joined with the inviter) and opens a pending join for the inviter (JSON)', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [user, inviter] = [snowflake(), snowflake()];
    const res = await admin('simulate', 'invite-join', '--guild', id, '--user', user, '--inviter', inviter, '--invite-code', 'abc', '--json');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const [event] = await eventsOf(id, 'members.joined');
    expect(event!.data).toMatchObject({ userId: user, inviterId: inviter, inviteCode: 'abc' });
    expect(res.json()).toEqual({
      userId: user,
      inviterId: inviter,
      inviteCode: 'abc',
      status: 'pending',
      seasonId: null,
      joinedAt: NOW.toISOString(),
      attribution: 'new',
      events: [{ id: event!.id, type: 'members.joined', createdAt: NOW.toISOString(), data: event!.data }],
      fanout: 'relay',
    });
    expect(await findPlatformMember(database.db, id, user)).toBeDefined();
    expect(await counts(id, inviter)).toEqual({ invites: 0, verified: 0, pending: 1, left: 0, fake: 0, bonus: 0, total: 1 });
  });

  it('refuses a self-invite and a member who is already in the server, changing nothing', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [user, inviter] = [snowflake(), snowflake()];
    const self = await admin('simulate', 'invite-join', '--guild', id, '--user', user, '--inviter', user, '--json');
    expect(self.code).toBe(1);
    expect(self.error()).toMatchObject({ error: 'SELF_INVITE' });
    expect(await findPlatformMember(database.db, id, user)).toBeUndefined();
    expect((await admin('simulate', 'invite-join', '--guild', id, '--user', user, '--inviter', inviter)).code).toBe(0);
    const again = await admin('simulate', 'invite-join', '--guild', id, '--user', user, '--inviter', snowflake(), '--json');
    expect(again.error()).toMatchObject({ error: 'ALREADY_MEMBER' });
    expect(await counts(id, inviter)).toMatchObject({ pending: 1, total: 1 });
  });

  it('needs --inviter', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const res = await admin('simulate', 'invite-join', '--guild', id, '--user', snowflake(), '--json');
    expect(res.code).toBe(2);
  });
});

describe('simulate invite-verify, invite-fake and member-leave', () => {
  it('walks the buckets: verified counts, fake never does, a leave moves to left and a rejoin reactivates', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const inviter = snowflake();
    const [a, b, c] = [snowflake(), snowflake(), snowflake()];
    for (const u of [a, b, c]) expect((await admin('simulate', 'invite-join', '--guild', id, '--user', u, '--inviter', inviter)).code).toBe(0);

    const verified = await admin('simulate', 'invite-verify', '--guild', id, '--user', a, '--json');
    expect(verified.json()).toMatchObject({ userId: a, inviterId: inviter, status: 'verified' });
    const fake = await admin('simulate', 'invite-fake', '--guild', id, '--user', b);
    expect(fake.stdout).toBe(`The join of ${b} (invited by ${inviter}) is now fake.`);
    expect(await counts(id, inviter)).toEqual({ invites: 1, verified: 1, pending: 1, left: 0, fake: 1, bonus: 0, total: 3 });
    expect(await auditOf(id, 'invites.verify')).toHaveLength(1);
    expect(await auditOf(id, 'invites.fake')).toHaveLength(1);

    for (const u of [a, b, c]) expect((await admin('simulate', 'member-leave', '--guild', id, '--user', u)).code).toBe(0);
    expect(await counts(id, inviter)).toEqual({ invites: 0, verified: 0, pending: 0, left: 2, fake: 1, bonus: 0, total: 3 });

    const rejoin = await admin('simulate', 'invite-join', '--guild', id, '--user', a, '--inviter', snowflake(), '--json');
    expect(rejoin.json()).toMatchObject({ inviterId: inviter, status: 'verified', attribution: 'reactivated' });
    expect((await admin('simulate', 'invite-join', '--guild', id, '--user', b, '--inviter', inviter, '--json')).json()).toMatchObject({
      status: 'fake',
      attribution: 'unchanged',
    });
    expect(await counts(id, inviter)).toEqual({ invites: 1, verified: 1, pending: 0, left: 1, fake: 1, bonus: 0, total: 3 });
  });

  it('refuses a verdict on a join that is not pending or not attributed', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [user, inviter] = [snowflake(), snowflake()];
    const none = await admin('simulate', 'invite-verify', '--guild', id, '--user', user, '--json');
    expect(none.code).toBe(1);
    expect(none.error()).toMatchObject({ error: 'JOIN_NOT_ATTRIBUTED' });
    await admin('simulate', 'invite-join', '--guild', id, '--user', user, '--inviter', inviter);
    await admin('simulate', 'invite-verify', '--guild', id, '--user', user);
    const twice = await admin('simulate', 'invite-fake', '--guild', id, '--user', user, '--json');
    expect(twice.error()).toMatchObject({ error: 'JOIN_NOT_PENDING' });
    expect(await counts(id, inviter)).toMatchObject({ verified: 1, fake: 0 });
    expect(await auditOf(id, 'invites.fake')).toHaveLength(0);
  });
});

describe('simulate season-start and season-end', () => {
  it('starts numbered seasons one at a time and ends them', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const first = await admin('simulate', 'season-start', '--guild', id, '--name', 'Winter', '--json');
    expect(first.json()).toEqual({ id: expect.any(Number), number: 1, name: 'Winter', startsAt: NOW.toISOString(), endsAt: null });
    const overlap = await admin('simulate', 'season-start', '--guild', id, '--json');
    expect(overlap.code).toBe(1);
    expect(overlap.error()).toMatchObject({ error: 'SEASON_ACTIVE' });
    const ended = await admin('simulate', 'season-end', '--guild', id);
    expect(ended.stdout).toBe(`Season 1 ended in guild ${id}; its counts are frozen.`);
    expect((await admin('simulate', 'season-end', '--guild', id, '--json')).error()).toMatchObject({ error: 'NO_ACTIVE_SEASON' });
    expect((await admin('simulate', 'season-start', '--guild', id, '--json')).json()).toMatchObject({ number: 2, name: null });
    expect(await auditOf(id, 'invites.seasonStart')).toHaveLength(2);
    expect(await auditOf(id, 'invites.seasonEnd')).toHaveLength(1);
  });
});

describe('simulate invite-milestone', () => {
  it('adds and removes milestone rewards with audit rows', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [vip, og] = [snowflake(), snowflake()];
    expect((await admin('simulate', 'invite-milestone', '--guild', id, '--invites', '10', '--role', og, '--json')).json()).toEqual({
      milestones: [{ invites: 10, roleId: og }],
    });
    const added = await admin('simulate', 'invite-milestone', '--guild', id, '--invites', '5', '--role', vip);
    expect(added.stdout.split('\n')).toEqual([`Milestone added: role ${vip} at 5 invites.`, `  5 invites: role ${vip}`, `  10 invites: role ${og}`]);
    const removed = await admin('simulate', 'invite-milestone', '--guild', id, '--invites', '10', '--role', og, '--remove', '--json');
    expect(removed.json()).toEqual({ milestones: [{ invites: 5, roleId: vip }] });
    expect((await admin('simulate', 'invite-milestone', '--guild', id, '--invites', '10', '--role', og, '--remove', '--json')).error()).toMatchObject({
      error: 'MILESTONE_NOT_FOUND',
    });
    expect(await auditOf(id, 'invites.milestoneAdd')).toHaveLength(2);
    expect(await auditOf(id, 'invites.milestoneRemove')).toHaveLength(1);
  });

  it.each([['0'], ['1000001'], ['2.5'], ['x']])('refuses --invites %s with exit code 2', async (value) => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const res = await admin('simulate', 'invite-milestone', '--guild', id, '--invites', value, '--role', snowflake(), '--json');
    expect(res.code).toBe(2);
    expect(res.error()).toMatchObject({ error: 'INVALID_ARGUMENT' });
  });
});
