import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listInviteSnapshots } from '../../db/invites/snapshots.js';
import { fixedClock } from '../../src/core/clock.js';
import { eventEnvelope } from '../../src/events/contract.js';
import { relayUnstartedBatches } from '../../src/events/batchLaunch.js';
import { changeGuild } from '../../src/guild/guildManagement.js';
import { FAKE_ACCOUNT_MAX_AGE_DAYS } from '../../src/invites/inviteAttribution.js';
import { addEndpoint } from '../../src/webhooks/endpointManagement.js';
import { verifyWebhook } from '../../src/webhooks/verifyWebhook.js';
import { addFakeInvite, guildCreatePayload, joinThroughFakeInvite, memberAddPayload, missingPermissions, addMember } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { snowflake } from '../harness/fixtures.js';
import { startReceiver } from '../harness/receiver.js';
import { testGateway, useTestWorker } from '../harness/temporal.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { seedFakeServer, type FakeServer } from './fakeServer.js';

// GUILD_MEMBER_ADD with invite attribution, through the real bot, the fake gateway and HTTP API: the invite whose use
// count rose since the snapshot names the inviter, credited as `simulate invite-join` credits; the event reaches a
// webhook receiver through the worker's start relay.

const NOW = new Date('2026-11-25T12:00:00Z');
const JOINED = '2026-11-25T11:59:58.000Z';
const database = useTestDatabase();
const gateway = testGateway();
useTestWorker(() => database.db, gateway);
let bed: BotBed;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
});
afterAll(() => bed?.close());

/** A user id whose snowflake says the account was created `days` before the join. */
const accountAged = (days: number) => String((BigInt(Date.parse(JOINED) - days * 86_400_000) - 1_420_070_400_000n) << 22n);

async function registeredServer(): Promise<FakeServer> {
  const s = seedFakeServer(bed.fake);
  await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
  await changeGuild(database.db, s.id, { plan: 'pro', features: ['members', 'invites'] }, { type: 'system' });
  return s;
}

const joinedAt = (payload: object) => ({ ...payload, joined_at: JOINED });
const inviteJoinOf = (guildId: string, userId: string) =>
  database.db.selectFrom('invite_joins').select(['inviter_id', 'invite_code', 'status']).where('guild_id', '=', guildId).where('user_id', '=', userId).execute();
const inviterOf = (guildId: string, userId: string) =>
  database.db.selectFrom('invite_members').select(['pending', 'fake', 'verified', 'total']).where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
const joinedEvents = async (guildId: string, userId: string) =>
  (await database.db.selectFrom('events').select(['id', 'data']).where('guild_id', '=', guildId).where('type', '=', 'members.joined').orderBy('seq').execute()).filter(
    (e) => (e.data as { userId: string }).userId === userId,
  );
const attributionOf = async (guildId: string, userId: string) =>
  (
    await database.db
      .selectFrom('audit_log')
      .select('data')
      .where('guild_id', '=', guildId)
      .where('action', '=', 'members.join')
      .where('target_id', '=', userId)
      .execute()
  ).map((r) => (r.data as { attribution?: string }).attribution);

describe('a join through an invite', () => {
  it('credits the inviter (a pending join, as simulate invite-join) and delivers members.joined to a webhook receiver', async () => {
    const receiver = await startReceiver([200]);
    try {
      const s = await registeredServer();
      const { secret } = await addEndpoint(
        { db: database.db, clock: fixedClock(NOW), actor: { type: 'system' }, allowInsecureLocal: true },
        { guildId: s.id, url: receiver.url, events: ['members.joined'] },
      );
      const invite = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId, uses: 3 });
      const other = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.ownerId, uses: 7 });
      await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
      const user = snowflake();
      await bed.dispatch('GUILD_MEMBER_ADD', joinedAt(joinThroughFakeInvite(bed.fake.state, invite.code, { id: user, username: 'newcomer' })));

      expect(await inviteJoinOf(s.id, user)).toEqual([{ inviter_id: s.inviterId, invite_code: invite.code, status: 'pending' }]);
      expect(await inviterOf(s.id, s.inviterId)).toEqual({ pending: 1, fake: 0, verified: 0, total: 1 });
      expect(await inviterOf(s.id, s.ownerId)).toBeUndefined();
      expect(await attributionOf(s.id, user)).toEqual(['invite']);
      expect((await listInviteSnapshots(database.db, s.id)).map((i) => [i.code, i.uses]).sort()).toEqual([[invite.code, 4], [other.code, 7]].sort());
      const [event] = await joinedEvents(s.id, user);
      expect(event!.data).toEqual({ userId: user, username: 'newcomer', bot: false, inviterId: s.inviterId, inviteCode: invite.code, joinedAt: JOINED });

      // The worker's start relay picks up what the bot committed (older than its 5 s grace on the relay's clock).
      await relayUnstartedBatches({ db: database.db, temporal: gateway, clock: fixedClock(new Date(Date.parse(JOINED) + 10_000)) });
      await eventually(async () => receiver.received.length, (n) => n >= 1);
      const [delivery] = receiver.received;
      expect(verifyWebhook(delivery!.body, delivery!.headers, secret).ok).toBe(true);
      expect(eventEnvelope('members.joined').strict().parse(JSON.parse(delivery!.body))).toEqual({
        id: event!.id,
        type: 'members.joined',
        createdAt: JOINED,
        guildId: s.id,
        data: event!.data,
      });
    } finally {
      await receiver.close();
    }
  });

  it('is one join when Discord sends the add twice: the inviter is credited once and the invites are not read again', async () => {
    const s = await registeredServer();
    const invite = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    const user = snowflake();
    const add = joinedAt(joinThroughFakeInvite(bed.fake.state, invite.code, { id: user, username: 'twice' }));
    const reads = () => bed.fake.requests.filter((r) => r.path === `/guilds/${s.id}/invites`).length;
    await bed.dispatch('GUILD_MEMBER_ADD', add);
    const readsAfterFirst = reads();
    await bed.dispatch('GUILD_MEMBER_ADD', add);

    expect(reads()).toBe(readsAfterFirst);
    expect(await joinedEvents(s.id, user)).toHaveLength(1);
    expect(await inviterOf(s.id, s.inviterId)).toEqual({ pending: 1, fake: 0, verified: 0, total: 1 });
    expect(await inviteJoinOf(s.id, user)).toHaveLength(1);
  });

  it('is judged fake at once when the account is younger than the limit, and never counts', async () => {
    const s = await registeredServer();
    const invite = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    const young = accountAged(FAKE_ACCOUNT_MAX_AGE_DAYS - 1);
    const old = accountAged(FAKE_ACCOUNT_MAX_AGE_DAYS + 1);
    await bed.dispatch('GUILD_MEMBER_ADD', joinedAt(joinThroughFakeInvite(bed.fake.state, invite.code, { id: young, username: 'fresh' })));
    await bed.dispatch('GUILD_MEMBER_ADD', joinedAt(joinThroughFakeInvite(bed.fake.state, invite.code, { id: old, username: 'seasoned' })));

    expect(await inviteJoinOf(s.id, young)).toEqual([{ inviter_id: s.inviterId, invite_code: invite.code, status: 'fake' }]);
    expect(await inviteJoinOf(s.id, old)).toEqual([{ inviter_id: s.inviterId, invite_code: invite.code, status: 'pending' }]);
    expect(await inviterOf(s.id, s.inviterId)).toEqual({ pending: 1, fake: 1, verified: 0, total: 2 });
  });

  it('is attributed to a one-use invite that Discord deleted at that use, even when INVITE_DELETE came first', async () => {
    const s = await registeredServer();
    const invite = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId, maxUses: 1 });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    const user = snowflake();
    const add = joinThroughFakeInvite(bed.fake.state, invite.code, { id: user, username: 'once' });
    await bed.dispatch('INVITE_DELETE', { channel_id: s.channels.general, guild_id: s.id, code: invite.code });
    await bed.dispatch('GUILD_MEMBER_ADD', joinedAt(add));

    expect(await inviteJoinOf(s.id, user)).toEqual([{ inviter_id: s.inviterId, invite_code: invite.code, status: 'pending' }]);
    expect(await listInviteSnapshots(database.db, s.id)).toEqual([]);
  });
});

describe('a join that cannot be attributed', () => {
  it.each([
    ['no invite count rose (a bot added through OAuth, a join the bot missed)', 'no-invite-used', 0],
    ['two invites were used before the bot compared', 'several-invites-used', 2],
  ])('is recorded unattributed when %s: members.joined without inviter, the reason in the audit row, nobody credited', async (_, reason, usedBefore) => {
    const s = await registeredServer();
    const invites = [s.inviterId, s.ownerId].map((inviterId) => addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId }));
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    const user = snowflake();
    for (const invite of invites.slice(0, usedBefore)) invite.uses += 1;
    const member = addMember(bed.fake.state, bed.fake.state.guilds.get(s.id)!, { id: user, username: 'mystery' });
    await bed.dispatch('GUILD_MEMBER_ADD', joinedAt(memberAddPayload(s.id, member)));

    expect((await joinedEvents(s.id, user)).map((e) => e.data)).toEqual([{ userId: user, username: 'mystery', bot: false, inviterId: null, inviteCode: null, joinedAt: JOINED }]);
    expect(await attributionOf(s.id, user)).toEqual([reason]);
    expect(await inviteJoinOf(s.id, user)).toEqual([]);
    expect(await inviterOf(s.id, s.inviterId)).toBeUndefined();
  });

  it('is recorded unattributed when Discord refuses the invites (the bot lacks Manage Server)', async () => {
    const s = await registeredServer();
    const invite = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    const user = snowflake();
    const add = joinedAt(joinThroughFakeInvite(bed.fake.state, invite.code, { id: user, username: 'unread' }));
    bed.fake.fail({ method: 'GET', path: `/guilds/${s.id}/invites`, answer: missingPermissions() });
    await bed.dispatch('GUILD_MEMBER_ADD', add);

    expect(await joinedEvents(s.id, user)).toHaveLength(1);
    expect(await attributionOf(s.id, user)).toEqual(['invites-unreadable']);
    expect(await inviteJoinOf(s.id, user)).toEqual([]);
  });
});
