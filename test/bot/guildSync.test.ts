import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGuild } from '../../db/guild/guilds.js';
import { findPlatformGuild, findPlatformMember, listPlatformChannels, listPlatformRoles } from '../../db/platform/local.js';
import { listInviteSnapshots } from '../../db/invites/snapshots.js';
import { changeGuild } from '../../src/guild/guildManagement.js';
import { addFakeInvite, guildCreatePayload, inviteCreatePayload, missingPermissions } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { seedFakeServer } from './fakeServer.js';

// GUILD_CREATE, GUILD_ROLE_*, CHANNEL_* and INVITE_* through the real bot against the fake gateway and HTTP API:
// the server registered or refreshed in the platform_* rows and the invite snapshot that attributes joins.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
});
afterAll(() => bed?.close());

const rolesOf = async (guildId: string) => (await listPlatformRoles(database.db, guildId)).map((r) => [r.role_id, r.name, r.position]).sort();
const channelsOf = async (guildId: string) => (await listPlatformChannels(database.db, guildId)).map((c) => [c.channel_id, c.name, c.type, c.parent_id]).sort();
const snapshotOf = async (guildId: string) =>
  (await listInviteSnapshots(database.db, guildId)).map((i) => ({ code: i.code, inviterId: i.inviter_id, uses: i.uses, maxUses: i.max_uses, deleted: i.deleted_at !== null }));
const auditOf = (guildId: string, action: string) =>
  database.db.selectFrom('audit_log').select(['actor_type', 'action']).where('guild_id', '=', guildId).where('action', '=', action).execute();

describe('GUILD_CREATE of a server the service does not know', () => {
  it('registers it on Free with no feature on, with its roles, channels and the bot member; no invites read while Invites is off', async () => {
    const s = seedFakeServer(bed.fake);
    addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId, uses: 4 });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));

    expect(await findGuild(database.db, s.id)).toEqual({ id: s.id, name: 'Gateway Server', icon: null, locale: 'en', plan: 'free', features: [], blocked: false });
    expect(await auditOf(s.id, 'guild.create')).toEqual([{ actor_type: 'system', action: 'guild.create' }]);
    expect(await findPlatformGuild(database.db, s.id)).toMatchObject({ owner_id: s.ownerId, bot_user_id: bed.fake.state.bot.id, name: 'Gateway Server' });
    expect(await rolesOf(s.id)).toEqual(
      [
        [s.id, '@everyone', 0],
        [s.roles.staff, 'Staff', 3],
        [s.roles.botRole, 'Community Bot', 2],
        [s.roles.member, 'Member', 1],
      ].sort(),
    );
    expect(await channelsOf(s.id)).toEqual(
      [
        [s.channels.category, 'Text', 'category', null],
        [s.channels.general, 'general', 'text', s.channels.category],
        [s.channels.thread, 'help thread', 'thread', s.channels.general],
      ].sort(),
    );
    expect(await findPlatformMember(database.db, s.id, bed.fake.state.bot.id)).toMatchObject({ bot: true, role_ids: [s.roles.botRole], username: 'Community Bot' });
    expect(await snapshotOf(s.id)).toEqual([]);
    expect(bed.fake.requests.filter((r) => r.path === `/guilds/${s.id}/invites`)).toEqual([]);
  });
});

describe('GUILD_CREATE of a server the service knows', () => {
  it('refreshes what Discord shows and leaves plan and features as the operator set them; a replay changes nothing more', async () => {
    const s = seedFakeServer(bed.fake);
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    await changeGuild(database.db, s.id, { plan: 'pro', features: ['members', 'invites'] }, { type: 'system' });

    const g = bed.fake.state.guilds.get(s.id)!;
    g.name = 'Renamed Server';
    g.roles.get(s.roles.staff)!.name = 'Moderators';
    g.roles.delete(s.roles.member);
    g.channels.delete(s.channels.thread);
    const invite = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId, maxUses: 5, uses: 1 });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));

    expect(await findGuild(database.db, s.id)).toMatchObject({ name: 'Renamed Server', plan: 'pro', features: ['members', 'invites'] });
    expect(await auditOf(s.id, 'guild.create')).toHaveLength(1);
    expect(await rolesOf(s.id)).toEqual(
      [
        [s.id, '@everyone', 0],
        [s.roles.staff, 'Moderators', 3],
        [s.roles.botRole, 'Community Bot', 2],
      ].sort(),
    );
    expect((await channelsOf(s.id)).map((c) => c[0])).toEqual([s.channels.category, s.channels.general].sort());
    expect(await snapshotOf(s.id)).toEqual([{ code: invite.code, inviterId: s.inviterId, uses: 1, maxUses: 5, deleted: false }]);
  });

  it('refreshes the rest when Discord refuses the invites (the bot lacks Manage Server), keeping the snapshot it had', async () => {
    const s = seedFakeServer(bed.fake);
    const invite = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId, uses: 2 });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    await changeGuild(database.db, s.id, { features: ['invites'] }, { type: 'system' });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    bed.fake.state.invites.get(invite.code)!.uses = 9;
    bed.fake.state.guilds.get(s.id)!.name = 'Still Synced';
    bed.fake.fail({ method: 'GET', path: `/guilds/${s.id}/invites`, answer: missingPermissions() });
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));

    expect(await findGuild(database.db, s.id)).toMatchObject({ name: 'Still Synced' });
    expect(await snapshotOf(s.id)).toEqual([{ code: invite.code, inviterId: s.inviterId, uses: 2, maxUses: 0, deleted: false }]);
  });

  it('ignores an unavailable server (a Discord outage), registering nothing', async () => {
    const id = snowflake();
    await bed.dispatch('GUILD_CREATE', { id, unavailable: true });
    expect(await findGuild(database.db, id)).toBeUndefined();
  });
});

describe('GUILD_ROLE_* and CHANNEL_*', () => {
  it('keep the role and channel rows current; a deleted role leaves the members who held it', async () => {
    const s = seedFakeServer(bed.fake);
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    const role = { ...bed.fake.state.guilds.get(s.id)!.roles.get(s.roles.staff)!, name: 'Team', position: 4 };
    const newRole = { ...role, id: snowflake(), name: 'VIP', position: 1 };
    await bed.dispatch('GUILD_ROLE_UPDATE', { guild_id: s.id, role });
    await bed.dispatch('GUILD_ROLE_CREATE', { guild_id: s.id, role: newRole });
    await bed.dispatch('GUILD_ROLE_DELETE', { guild_id: s.id, role_id: s.roles.botRole });
    const voice = snowflake();
    await bed.dispatch('CHANNEL_CREATE', { id: voice, type: 2, guild_id: s.id, name: 'Voice', parent_id: s.channels.category, position: 2 });
    await bed.dispatch('CHANNEL_UPDATE', { id: s.channels.general, type: 0, guild_id: s.id, name: 'chat', parent_id: null, position: 0 });
    await bed.dispatch('CHANNEL_DELETE', { id: s.channels.category, type: 4, guild_id: s.id, name: 'Text', position: 0 });

    expect(await rolesOf(s.id)).toEqual(
      [
        [s.id, '@everyone', 0],
        [s.roles.staff, 'Team', 4],
        [newRole.id, 'VIP', 1],
        [s.roles.member, 'Member', 1],
      ].sort(),
    );
    expect(await findPlatformMember(database.db, s.id, bed.fake.state.bot.id)).toMatchObject({ role_ids: [] });
    expect(await channelsOf(s.id)).toEqual(
      [
        [voice, 'Voice', 'voice', s.channels.category],
        [s.channels.general, 'chat', 'text', null],
        [s.channels.thread, 'help thread', 'thread', s.channels.general],
      ].sort(),
    );
  });

  it('change nothing for a server the service does not know', async () => {
    const id = snowflake();
    await bed.dispatch('GUILD_ROLE_CREATE', { guild_id: id, role: { id: snowflake(), name: 'X', position: 1, color: 0, hoist: false, managed: false, mentionable: false, permissions: '0' } });
    await bed.dispatch('CHANNEL_CREATE', { id: snowflake(), type: 0, guild_id: id, name: 'x', position: 0 });
    expect(await listPlatformRoles(database.db, id)).toEqual([]);
    expect(await listPlatformChannels(database.db, id)).toEqual([]);
  });
});

describe('INVITE_CREATE and INVITE_DELETE', () => {
  it('add an invite to the snapshot and mark a deleted one, which stays until the next join is compared with it', async () => {
    const s = seedFakeServer(bed.fake);
    await bed.dispatch('GUILD_CREATE', guildCreatePayload(bed.fake.state, s.id));
    const invite = addFakeInvite(bed.fake.state, { guildId: s.id, channelId: s.channels.general, inviterId: s.inviterId, maxUses: 1 });
    await bed.dispatch('INVITE_CREATE', inviteCreatePayload(bed.fake.state, invite.code));
    await bed.dispatch('INVITE_CREATE', inviteCreatePayload(bed.fake.state, invite.code));
    expect(await snapshotOf(s.id)).toEqual([{ code: invite.code, inviterId: s.inviterId, uses: 0, maxUses: 1, deleted: false }]);
    await bed.dispatch('INVITE_DELETE', { channel_id: s.channels.general, guild_id: s.id, code: invite.code });
    expect(await snapshotOf(s.id)).toEqual([{ code: invite.code, inviterId: s.inviterId, uses: 0, maxUses: 1, deleted: true }]);
  });
});
