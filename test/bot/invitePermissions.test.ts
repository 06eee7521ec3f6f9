import { PermissionFlagsBits } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlatformGuild, findPlatformMember } from '../../db/platform/local.js';
import { changeGuild } from '../../src/guild/guildManagement.js';
import { readBotPermissions } from '../../src/guild/botPermissions.js';
import { addFakeInvite, addMember, guildCreatePayload, joinThroughFakeInvite } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { seedFakeServer, type FakeServer } from './fakeServer.js';

// Requests Discord would refuse are not sent: invites are read only where the Invites feature is on and the bot holds
// Manage Server, known from GUILD_CREATE and kept current by role and member updates. Every refused read is a 403
// counted toward Discord's invalid-request ban; the fake's request log and counter show none is made.

const NOW = new Date('2026-11-25T12:00:00Z');
const JOINED = '2026-11-25T11:59:58.000Z';
const database = useTestDatabase();
let bed: BotBed;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
});
afterAll(() => bed?.close());

const MANAGE_GUILD = PermissionFlagsBits.ManageGuild;
const VIEW_AUDIT_LOG = PermissionFlagsBits.ViewAuditLog;

/** The bot's role on the fake: its permissions as given, Manage Server taken away, View Audit Log added when asked. */
function setBotRole(s: FakeServer, change: { manageGuild: boolean; viewAuditLog?: boolean }) {
  const role = bed.fake.state.guilds.get(s.id)!.roles.get(s.roles.botRole)!;
  let bits = BigInt(role.permissions);
  bits = change.manageGuild ? bits | MANAGE_GUILD : bits & ~MANAGE_GUILD;
  bits = change.viewAuditLog ? bits | VIEW_AUDIT_LOG : bits & ~VIEW_AUDIT_LOG;
  role.permissions = String(bits);
  return role;
}

async function serverWithInvites(features: Array<'invites' | 'members'>, botRole: { manageGuild: boolean; viewAuditLog?: boolean }) {
  const s = seedFakeServer(bed.fake);
  setBotRole(s, botRole);
  await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
  await changeGuild(database.db, s.id, { plan: 'pro', features }, { type: 'system' });
  const invite = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId, uses: 1 });
  return { s, invite };
}

const invitesRead = (guildId: string) => bed.fake.requests.filter((r) => r.path === `/guilds/${guildId}/invites`).map((r) => r.status);
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
const memberRow = (guildId: string, userId: string) =>
  database.db.selectFrom('platform_members').select(['user_id']).where('guild_id', '=', guildId).where('user_id', '=', userId).execute();

async function joinThrough(s: FakeServer, code: string) {
  const user = snowflake();
  await bed.dispatch('GUILD_MEMBER_ADD', { ...joinThroughFakeInvite(bed.fake.state, code, { id: user, username: 'joiner' }), joined_at: JOINED });
  return user;
}

describe('invites are read only where Discord would answer them', () => {
  it('a server where the bot lacks Manage Server: no invites read on GUILD_CREATE or on a join, no 403; the join is recorded as unreadable', async () => {
    const invalidBefore = bed.fake.invalidRequests();
    const { s, invite } = await serverWithInvites(['invites', 'members'], { manageGuild: false });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    const user = await joinThrough(s, invite.code);

    expect(invitesRead(s.id)).toEqual([]);
    expect(bed.fake.invalidRequests()).toBe(invalidBefore);
    expect(await memberRow(s.id, user)).toHaveLength(1);
    expect(await attributionOf(s.id, user)).toEqual(['invites-unreadable']);
  });

  it('a server with Invites off: nothing read, the join recorded as invites-off', async () => {
    const { s, invite } = await serverWithInvites(['members'], { manageGuild: true });
    const user = await joinThrough(s, invite.code);

    expect(invitesRead(s.id)).toEqual([]);
    expect(await attributionOf(s.id, user)).toEqual(['invites-off']);
  });

  it('a role update granting Manage Server lets the next join read them; a member update taking the role from the bot stops it again', async () => {
    const { s, invite } = await serverWithInvites(['invites', 'members'], { manageGuild: false });
    const role = setBotRole(s, { manageGuild: true });
    await bed.dispatch('GUILD_ROLE_UPDATE', { guild_id: s.id, role });
    const credited = await joinThrough(s, invite.code);
    expect(invitesRead(s.id)).toEqual([200]);
    expect(await attributionOf(s.id, credited)).toEqual(['invite']);

    const bot = bed.fake.state.guilds.get(s.id)!.members.get(bed.fake.state.bot.id)!;
    bot.roles = [];
    await bed.dispatch('GUILD_MEMBER_UPDATE', { guild_id: s.id, ...bot });
    expect(await readBotPermissions(database.db, s.id)).toBe(0n);
    const unread = await joinThrough(s, invite.code);
    expect(invitesRead(s.id)).toEqual([200]);
    expect(await attributionOf(s.id, unread)).toEqual(['invites-unreadable']);
  });

  it('invites listed without their counts (View Audit Log, Manage Server gone before the bot heard of it): the join is recorded as unreadable, not lost', async () => {
    const { s, invite } = await serverWithInvites(['invites', 'members'], { manageGuild: true });
    // Discord took Manage Server away; the role update has not reached the bot yet.
    setBotRole(s, { manageGuild: false, viewAuditLog: true });
    const user = await joinThrough(s, invite.code);

    expect(invitesRead(s.id)).toEqual([200]);
    expect(await memberRow(s.id, user)).toHaveLength(1);
    expect(await attributionOf(s.id, user)).toEqual(['invites-unreadable']);
  });
});

describe('GUILD_MEMBER_UPDATE and GUILD_DELETE', () => {
  it("keeps a member's roles, nickname, names and timeout current; a member never recorded is left alone", async () => {
    const s = seedFakeServer(bed.fake);
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    const guild = bed.fake.state.guilds.get(s.id)!;
    const userId = snowflake();
    await bed.dispatch('GUILD_MEMBER_ADD', { guild_id: s.id, ...addMember(bed.fake.state, guild, { id: userId, username: 'nina' }), joined_at: JOINED });
    const until = '2026-11-26T12:00:00.000Z';
    const updated = { ...guild.members.get(userId)!, nick: 'Nina', roles: [s.roles.member], communication_disabled_until: until };
    updated.user = { ...updated.user, username: 'nina2', global_name: 'Nina G' };
    await bed.dispatch('GUILD_MEMBER_UPDATE', { guild_id: s.id, ...updated });

    expect(await findPlatformMember(database.db, s.id, userId)).toMatchObject({
      username: 'nina2',
      global_name: 'Nina G',
      nickname: 'Nina',
      role_ids: [s.roles.member],
      timed_out_until: new Date(until),
    });
    const stranger = snowflake();
    await bed.dispatch('GUILD_MEMBER_UPDATE', { guild_id: s.id, user: { id: stranger, username: 'x', discriminator: '0', global_name: null, avatar: null }, roles: [], joined_at: JOINED });
    expect(await findPlatformMember(database.db, s.id, stranger)).toBeUndefined();
  });

  it('marks the server left when the bot is removed (nothing deleted), ignores an outage, and a later GUILD_CREATE clears it', async () => {
    const s = seedFakeServer(bed.fake);
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    await bed.dispatch('GUILD_DELETE', { id: s.id, unavailable: true });
    expect(await findPlatformGuild(database.db, s.id)).toMatchObject({ left_at: null });

    await bed.dispatch('GUILD_DELETE', { id: s.id });
    expect(await findPlatformGuild(database.db, s.id)).toMatchObject({ left_at: bed.clock.now() });
    expect(await readBotPermissions(database.db, s.id)).toBeNull();
    expect(await findPlatformMember(database.db, s.id, s.inviterId)).toBeUndefined();
    expect(await findPlatformMember(database.db, s.id, bed.fake.state.bot.id)).toBeDefined();

    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    expect(await findPlatformGuild(database.db, s.id)).toMatchObject({ left_at: null });
    expect(await readBotPermissions(database.db, s.id)).toBe(BigInt(bed.fake.state.guilds.get(s.id)!.roles.get(s.roles.botRole)!.permissions));
  });
});
