import { describe, expect, it } from 'vitest';
import { snowflake } from '../harness/fixtures.js';
import { MANAGE_GUILD } from '../../src/console/managerRule.js';
import { addMember } from '../../process/infra/fakeDiscord/index.js';
import { consoleClient, errorCodeOf } from './consoleClient.js';
import { useDiscordConsole } from './discordBed.js';

// Both member caches as production has them: the api's (MEMBER_CACHE_SECONDS) and the Discord adapter's, 5 minutes each.
const bed = useDiscordConsole({ MEMBER_CACHE_SECONDS: '300' });

/** A console client signed in with Discord as the user (the fake approves as them). */
async function signedInAs(userId: string) {
  const client = consoleClient(bed.app.baseUrl);
  const start = await client.get('/console/sign-in/discord');
  bed.oauth.signInAs(userId);
  const callback = new URL((await fetch(new URL(start.headers.location!), { redirect: 'manual' })).headers.get('location')!);
  expect((await client.get(callback.pathname + callback.search)).status).toBe(303);
  await client.get('/console'); // the page gives the form's CSRF token
  return client;
}

/** A server whose `Managers` role grants Manage Server, a member holding it, and that member signed in. */
async function signedInManager() {
  const guild = await bed.guild();
  const fakeGuild = bed.fake.state.guilds.get(guild.id)!;
  const roleId = snowflake();
  fakeGuild.roles.set(roleId, { id: roleId, name: 'Managers', position: 3, permissions: String(MANAGE_GUILD), color: 0, colors: { primary_color: 0, secondary_color: null, tertiary_color: null }, hoist: false, managed: false, mentionable: false, flags: 0 } as never);
  const managerId = snowflake();
  addMember(bed.fake.state, fakeGuild, { id: managerId, username: 'manager', roles: [roleId] });
  const client = await signedInAs(managerId);
  const member = fakeGuild.members.get(managerId)!;
  return { guild, fakeGuild, roleId, managerId, member, client };
}

/** The keys the console user made (the fixture's server has keys of its own). */
const keysMadeBy = (guildId: string, userId: string) =>
  bed.app.deps.db.selectFrom('api_keys').select('name').where('guild_id', '=', guildId).where('created_by', '=', userId).execute();
const memberReads = (guildId: string, userId: string, from: number) =>
  bed.fake.requests.slice(from).filter((r) => r.method === 'GET' && r.path.endsWith(`/guilds/${guildId}/members/${userId}`)).length;

describe('a write reads the manager fresh from Discord, past both member caches', () => {
  it('refuses the next write at once after the manager role is taken, with both caches still holding the member', async () => {
    const { guild, managerId, member, client } = await signedInManager();
    // A page fills both caches with the member as a manager.
    expect((await client.get(`/console/servers/${guild.id}/keys`)).status).toBe(200);
    member.roles = [];
    bed.clock.advance(1_000);
    const from = bed.fake.requests.length;
    const refused = await client.post(`/console/servers/${guild.id}/keys`, { name: 'after demotion', scopes: 'guild:read' });
    expect(refused.status).toBe(403);
    expect(errorCodeOf(refused)).toBe('NOT_A_SERVER_MANAGER');
    expect(memberReads(guild.id, managerId, from)).toBe(1);
    expect(await keysMadeBy(guild.id, managerId)).toEqual([]);
  });

  it("refuses it too when the role stays but loses Manage Server (the roles are read fresh as well)", async () => {
    const { guild, fakeGuild, roleId, managerId, client } = await signedInManager();
    expect((await client.get(`/console/servers/${guild.id}/keys`)).status).toBe(200);
    fakeGuild.roles.get(roleId)!.permissions = '0';
    const refused = await client.post(`/console/servers/${guild.id}/keys`, { name: 'after the role changed', scopes: 'guild:read' });
    expect(refused.status).toBe(403);
    expect(errorCodeOf(refused)).toBe('NOT_A_SERVER_MANAGER');
    expect(await keysMadeBy(guild.id, managerId)).toEqual([]);
  });

  it('lets a manager who still is one write, reading the member once for the write', async () => {
    const { guild, managerId, client } = await signedInManager();
    expect((await client.get(`/console/servers/${guild.id}/keys`)).status).toBe(200);
    const from = bed.fake.requests.length;
    expect((await client.post(`/console/servers/${guild.id}/keys`, { name: 'still a manager', scopes: 'guild:read' })).status).toBe(303);
    expect(memberReads(guild.id, managerId, from)).toBe(1);
    expect(await keysMadeBy(guild.id, managerId)).toEqual([{ name: 'still a manager' }]);
  });
});

describe('a member timed out on Discord', () => {
  it('is not a manager through Manage Server while the timeout lasts, and is again once it lapses', async () => {
    const { guild, managerId, member, client } = await signedInManager();
    expect((await client.get(`/console/servers/${guild.id}/keys`)).status).toBe(200);
    member.communication_disabled_until = new Date(bed.clock.now().getTime() + 10 * 60_000).toISOString();
    const refused = await client.post(`/console/servers/${guild.id}/keys`, { name: 'timed out', scopes: 'guild:read' });
    expect(refused.status).toBe(403);
    expect(errorCodeOf(refused)).toBe('NOT_A_SERVER_MANAGER');
    expect(await keysMadeBy(guild.id, managerId)).toEqual([]);
    bed.clock.advance(10 * 60_000 + 1_000);
    expect((await client.post(`/console/servers/${guild.id}/keys`, { name: 'timeout over', scopes: 'guild:read' })).status).toBe(303);
    expect(await keysMadeBy(guild.id, managerId)).toEqual([{ name: 'timeout over' }]);
  });

  it('stays a manager when Administrator (Discord exempts administrators and owners from a timeout)', async () => {
    const guild = await bed.guild();
    const admin = bed.fake.state.guilds.get(guild.id)!.members.get(guild.adminId)!;
    admin.communication_disabled_until = new Date(bed.clock.now().getTime() + 10 * 60_000).toISOString();
    const client = await signedInAs(guild.adminId);
    await client.get(`/console/servers/${guild.id}/keys`);
    expect((await client.post(`/console/servers/${guild.id}/keys`, { name: 'admin', scopes: 'guild:read' })).status).toBe(303);
  });
});
