import { describe, expect, it } from 'vitest';
import { upsertPlatformMember, upsertPlatformRoles } from '../../db/platform/local.js';
import { createKeysActivities } from '../../activities/keys.js';
import { fixedClock } from '../../src/core/clock.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { addTestMember, bearer, createTestKey, snowflake } from '../harness/fixtures.js';
import { consoleClient, errorCodeOf, managedGuild, signedInManager } from './consoleClient.js';

// Many sign-ins from one address in this file: the limit itself is tested in sessions.test.ts.
const { database, app } = useApiTestBed({ env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

const keyRow = (id: number) => database.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const keysOf = (guildId: string) => database.db.selectFrom('api_keys').select(['id', 'revoked_at']).where('guild_id', '=', guildId).orderBy('id').execute();
// The console user's key actions (their sign-ins are audited too, as console.signIn: not what these tests count).
const auditOf = (guildId: string) =>
  database.db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', 'action', 'target_id'])
    .where('guild_id', '=', guildId)
    .where('actor_type', '=', 'console_user')
    .where('action', '!=', 'console.signIn')
    .orderBy('id')
    .execute();

const signedIn = () => signedInManager(database.db, app.baseUrl);

describe('the API keys page', () => {
  it('lists the servers the user manages, and their keys without the keys themselves', async () => {
    const { guild, client } = await signedIn();
    const existing = await createTestKey(database.db, guild, { name: 'billing backend', scopes: ['bank:read'] });
    const servers = await client.get('/console');
    expect(servers.text).toContain(`href="/console/servers/${guild.id}/overview"`);
    const page = await client.get(`/console/servers/${guild.id}/keys`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('billing backend');
    expect(page.text).toContain(existing.prefix);
    expect(page.text).not.toContain(existing.key);
  });

  it('creates a key with the picked scopes and expiry, shows it once after the redirect, audit-logs the console user, and the key works', async () => {
    const { guild, client } = await signedIn();
    await client.get(`/console/servers/${guild.id}/keys`);
    const res = await client.post(`/console/servers/${guild.id}/keys`, { name: 'Reporting', scopes: ['guild:read', 'bank:read'], expires: '90' });
    expect(res.status).toBe(303);
    const [created] = (await keysOf(guild.id)).slice(-1);
    expect(res.headers.location).toBe(`/console/servers/${guild.id}/keys/${created!.id}/created`);
    const shown = await client.get(res.headers.location!);
    expect(shown.status).toBe(200);
    const key = /id="new-key" value="([^"]+)"/.exec(shown.text)?.[1];
    expect(key).toMatch(/^svc_/);
    const row = await keyRow(created!.id);
    expect(row).toMatchObject({ name: 'Reporting', scopes: ['guild:read', 'bank:read'], created_by: guild.managerId, revoked_at: null });
    expect(row.expires_at!.getTime() - row.created_at.getTime()).toBeGreaterThanOrEqual(90 * 86_400_000 - 1_000);
    expect(await auditOf(guild.id)).toContainEqual({ actor_type: 'console_user', actor_id: guild.managerId, action: 'api_key.create', target_id: String(row.id) });
    const call = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key!) });
    expect(call.status).toBe(200);
    // Shown once: neither the list nor the result page opened again shows it.
    expect((await client.get(`/console/servers/${guild.id}/keys`)).text).not.toContain(key!);
    const again = await client.get(res.headers.location!);
    expect(again.status).toBe(200);
    expect(again.text).toContain('data-secret-gone');
    expect(again.text).not.toContain(key!);
  });

  it.each([
    ['no name', { name: ' ', scopes: 'bank:read' }, 'key-name'],
    ['no scope', { name: 'x' }, 'key-scopes'],
    ['an unknown scope', { name: 'x', scopes: 'root:all' }, 'key-scopes'],
    ['an expiry not offered', { name: 'x', scopes: 'bank:read', expires: '7' }, 'key-expires'],
  ])('refuses a key with %s: 400 INVALID_INPUT on the form, the field named, and nothing created', async (_, fields, field) => {
    const { guild, client } = await signedIn();
    await client.get(`/console/servers/${guild.id}/keys`);
    const res = await client.post(`/console/servers/${guild.id}/keys`, fields);
    expect(res.status).toBe(400);
    expect(errorCodeOf(res)).toBe('INVALID_INPUT');
    expect(res.text).toContain(`<a href="#${field}">`);
    expect(await keysOf(guild.id)).toEqual([]);
    expect(await auditOf(guild.id)).toEqual([]);
  });

  it('revokes after a confirmation page; the key is refused 401 at once, and a second revoke from another tab is 409', async () => {
    const { guild, client } = await signedIn();
    const key = await createTestKey(database.db, guild, { name: 'old integration' });
    const path = `/console/servers/${guild.id}/keys/${key.id}/revoke`;
    const confirm = await client.get(path);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Revoke the key');
    const otherTab = client.state.forms.get(path);
    await client.get(path);
    const res = await client.post(path);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/console/servers/${guild.id}/keys`);
    expect((await keyRow(key.id)).revoked_at).not.toBeNull();
    expect(await auditOf(guild.id)).toContainEqual({ actor_type: 'console_user', actor_id: guild.managerId, action: 'api_key.revoke', target_id: String(key.id) });
    const call = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key.key) });
    expect(call.status).toBe(401);
    expect(call.body.error).toBe('API_KEY_REVOKED');
    const again = await client.post(path, {}, { form: otherTab });
    expect(again.status).toBe(409);
    expect(errorCodeOf(again)).toBe('KEY_ALREADY_REVOKED');
    expect((await client.get(path)).status).toBe(409);
  });
});

describe('a key\'s last use', () => {
  it('shows the minute of its last call, which the hourly purge keeps when it deletes the rate-limit window', async () => {
    const { guild, client } = await signedIn();
    const key = await createTestKey(database.db, guild, { name: 'used' });
    const unused = await createTestKey(database.db, guild, { name: 'unused' });
    expect((await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key.key) })).status).toBe(200);
    await app.deps.keyHits.flush();
    const [window] = await database.db.selectFrom('rate_limit_counters').select('window_start').where('bucket', '=', `key:${key.id}`).execute();
    const lastUsed = (html: string, id: number) => new RegExp(`data-key-id="${id}".*?data-last-used[^>]*>(.*?)</td>`, 's').exec(html)?.[1];
    const before = await client.get(`/console/servers/${guild.id}/keys`);
    expect(lastUsed(before.text, key.id)).toContain(`datetime="${window!.window_start.toISOString()}"`);
    expect(lastUsed(before.text, unused.id)).toBe('never');

    const purge = createKeysActivities({ db: database.db, clock: fixedClock(new Date(window!.window_start.getTime() + 3 * 60_000)) } as never);
    await purge.purgeExpiredRecords();
    expect(await database.db.selectFrom('rate_limit_counters').select('bucket').where('bucket', '=', `key:${key.id}`).execute()).toEqual([]);
    const after = await client.get(`/console/servers/${guild.id}/keys`);
    expect(lastUsed(after.text, key.id)).toContain(`datetime="${window!.window_start.toISOString()}"`);
  });
});

describe('console authorization for keys', () => {
  it('refuses a POST without the CSRF token, or with another session’s, 403 and creates nothing', async () => {
    const { guild, client } = await signedIn();
    const other = await signedIn();
    for (const csrf of [null, other.client.state.csrf, 'x']) {
      const res = await client.post(`/console/servers/${guild.id}/keys`, { name: 'forged', scopes: 'bank:read' }, { csrf });
      expect(res.status).toBe(403);
      expect(errorCodeOf(res)).toBe('CSRF_TOKEN_INVALID');
    }
    expect(await keysOf(guild.id)).toEqual([]);
  });

  it("a manager of server A cannot touch server B's key: 404 through A's pages, 403 through B's, the key unchanged", async () => {
    const a = await signedIn();
    const b = await managedGuild(database.db, 'Other Guild');
    const bKey = await createTestKey(database.db, b, { name: 'b key' });
    const viaA = await a.client.post(`/console/servers/${a.guild.id}/keys/${bKey.id}/revoke`);
    expect(viaA.status).toBe(404);
    expect(errorCodeOf(viaA)).toBe('KEY_NOT_FOUND');
    const viaB = await a.client.post(`/console/servers/${b.id}/keys/${bKey.id}/revoke`);
    expect(viaB.status).toBe(403);
    expect(errorCodeOf(viaB)).toBe('NOT_A_SERVER_MANAGER');
    expect((await a.client.get(`/console/servers/${b.id}/keys`)).status).toBe(403);
    expect((await keyRow(bKey.id)).revoked_at).toBeNull();
    expect(await auditOf(b.id)).toEqual([]);
  });

  it('a member without Manage Server sees no server, and a forged POST is refused 403', async () => {
    const guild = await managedGuild(database.db);
    const client = consoleClient(app.baseUrl);
    await client.signIn(guild.memberId);
    const servers = await client.get('/console');
    expect(servers.text).toContain('data-empty="servers"');
    expect(servers.text).not.toContain(guild.id);
    const page = await client.get(`/console/servers/${guild.id}/keys`);
    expect(page.status).toBe(403);
    const forged = await client.post(`/console/servers/${guild.id}/keys`, { name: 'forged', scopes: 'bank:read' });
    expect(forged.status).toBe(403);
    expect(errorCodeOf(forged)).toBe('NOT_A_SERVER_MANAGER');
    expect(await keysOf(guild.id)).toEqual([]);
    expect(await auditOf(guild.id)).toEqual([]);
  });

  it('re-checks the permission on every write: a manager whose role was taken is refused 403', async () => {
    const { guild, client } = await signedIn();
    await upsertPlatformMember(database.db, { guildId: guild.id, userId: guild.managerId, username: 'manager', bot: false, roleIds: [] });
    const res = await client.post(`/console/servers/${guild.id}/keys`, { name: 'late', scopes: 'bank:read' });
    expect(res.status).toBe(403);
    expect(errorCodeOf(res)).toBe('NOT_A_SERVER_MANAGER');
    expect(await keysOf(guild.id)).toEqual([]);
  });

  it('lets the owner and an Administrator manage, and refuses an unknown server id like one not managed', async () => {
    const guild = await managedGuild(database.db);
    const owner = consoleClient(app.baseUrl);
    await owner.signIn(guild.ownerId);
    expect((await owner.get(`/console/servers/${guild.id}/keys`)).status).toBe(200);
    const adminRole = snowflake();
    await upsertPlatformRoles(database.db, guild.id, [{ roleId: adminRole, name: 'Admins', position: 3, permissions: 1n << 3n }]);
    const adminId = await addTestMember(database.db, guild, { username: 'admin', roleIds: [adminRole] });
    const admin = consoleClient(app.baseUrl);
    await admin.signIn(adminId);
    expect((await admin.get(`/console/servers/${guild.id}/keys`)).status).toBe(200);
    expect((await admin.get('/console')).text).toContain(`/console/servers/${guild.id}/overview`);
    const unknown = await owner.get('/console/servers/1999999999999999998/keys');
    expect(unknown.status).toBe(403);
    expect(errorCodeOf(unknown)).toBe('NOT_A_SERVER_MANAGER');
    expect((await owner.get('/console/servers/not-a-server/keys')).status).toBe(403);
    expect((await owner.get(`/console/servers/${guild.id}/keys/abc/revoke`)).status).toBe(404);
  });
});
