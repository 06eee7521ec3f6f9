import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { CredentialCache } from '../../src/keys/credentialCache.js';
import { revokeApiKey } from '../../src/keys/keyManagement.js';
import { useTestDatabase } from '../harness/database.js';
import { bearer, createTestKey } from '../harness/fixtures.js';
import { startTestApp, type TestApp } from '../harness/testApp.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

// With a credential cache, as the api runs: a cached key must stop at the end of its roll's overlap by itself.
const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-28T10:00:00.000Z'));
let cache: CredentialCache;
let app: TestApp & { close(): Promise<void> };
beforeAll(async () => {
  cache = new CredentialCache({ connectionString: database.url, maxEntries: 100, versionCheckMs: 3_600_000 });
  const listening = once(cache, 'listening');
  cache.start();
  await listening;
  app = await startTestApp(database.db, { clock, env: { CONSOLE_SIGN_IN_LIMIT: '1000' }, deps: { credentials: cache } });
});
afterAll(async () => {
  await app?.close();
  await cache?.close();
});

const HOUR = 3_600_000;
const keysOf = (guildId: string) => database.db.selectFrom('api_keys').selectAll().where('guild_id', '=', guildId).orderBy('id').execute();
const auditOf = (guildId: string) =>
  database.db.selectFrom('audit_log').select(['action', 'target_id', 'data']).where('guild_id', '=', guildId).where('actor_type', '=', 'console_user').orderBy('id').execute();
const call = (guildId: string, key: string) => app.http('GET', `/guilds/${guildId}`, { headers: bearer(key) });

async function managerWithKey(options: { expiresInDays?: 30 | null; plan?: 'free' | 'pro' } = {}) {
  clock.set(new Date('2026-11-28T10:00:00.000Z'));
  const guild = await managedGuild(database.db);
  if (options.plan) await database.db.updateTable('guilds').set({ plan: options.plan }).where('id', '=', guild.id).execute();
  const old = await createTestKey(database.db, guild, { name: 'Billing', scopes: ['guild:read', 'bank:write'], expiresInDays: options.expiresInDays ?? null, clock });
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, old, client, rollPage: `/console/servers/${guild.id}/keys/${old.id}/roll` };
}

/** Rolls through the confirmation page; returns the new key's secret from its result page. */
async function roll(client: ReturnType<typeof consoleClient>, rollPage: string, overlap: string, expires = '90') {
  expect((await client.get(rollPage)).status).toBe(200);
  const announced = once(cache, 'cleared');
  const res = await client.post(rollPage, { overlap, expires });
  expect(res.status).toBe(303);
  await announced;
  const page = await client.get(res.headers.location!);
  return { res, page, secret: /id="new-key" value="([^"]+)"/.exec(page.text)![1]! };
}

describe('rolling an API key in the console', () => {
  it.each([
    ['now', 0],
    ['1h', HOUR],
    ['24h', 24 * HOUR],
    ['7d', 7 * 24 * HOUR],
  ])('overlap %s: the old key works until the period ends, then gets 401 API_KEY_EXPIRED by itself; the new key works', async (overlap, period) => {
    const { guild, old, client, rollPage } = await managerWithKey();
    expect((await call(guild.id, old.key)).status).toBe(200);
    expect(cache.size).toBeGreaterThan(0);
    const rolledAt = clock.now().getTime();
    const { secret } = await roll(client, rollPage, overlap);
    if (period > 0) {
      clock.set(new Date(rolledAt + period - 1_000));
      expect((await call(guild.id, old.key)).status).toBe(200);
      // Served from the cache the second time: the expiry is checked on cached keys too.
      expect((await call(guild.id, old.key)).status).toBe(200);
    }
    clock.set(new Date(rolledAt + period));
    const refused = await call(guild.id, old.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('API_KEY_EXPIRED');
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="Service API"');
    expect((await call(guild.id, secret)).status).toBe(200);
    const [oldRow, newRow] = await keysOf(guild.id);
    expect(oldRow!.expires_at!.getTime()).toBe(rolledAt + period);
    expect(oldRow!.rolled_into).toBe(newRow!.id);
  });

  it('keeps name and scopes, gives the new key the expiry picked and the roller as creator, and audit-logs it', async () => {
    const { guild, old, client, rollPage } = await managerWithKey({ expiresInDays: 30 });
    clock.advance(10 * 24 * HOUR);
    await client.signIn(guild.managerId);
    const confirm = await client.get(rollPage);
    expect(confirm.text).toContain('Roll the key');
    expect(confirm.text).toMatch(/value="24h" checked/);
    expect(confirm.text).toMatch(/value="90" checked/);
    const { res, page, secret } = await roll(client, rollPage, '1h', '365');
    const [oldRow, newRow] = await keysOf(guild.id);
    expect(res.headers.location).toBe(`/console/servers/${guild.id}/keys/${newRow!.id}/created`);
    expect(page.text).toContain(`<h1>Key &quot;Billing&quot; rolled</h1>`);
    expect(page.text).toMatch(new RegExp(`data-replaces[^>]*>.*${old.prefix}`, 's'));
    expect(newRow).toMatchObject({ name: 'Billing', scopes: ['guild:read', 'bank:write'], created_by: guild.managerId, revoked_at: null, rolled_into: null });
    expect(newRow!.expires_at!.getTime() - clock.now().getTime()).toBe(365 * 24 * HOUR);
    expect(newRow!.key_hash.equals(oldRow!.key_hash)).toBe(false);
    expect(secret.startsWith(newRow!.prefix)).toBe(true);
    expect(await auditOf(guild.id)).toEqual([
      {
        action: 'api_key.roll',
        target_id: String(old.id),
        data: { name: 'Billing', prefix: old.prefix, oldKeyUntil: new Date(clock.now().getTime() + HOUR).toISOString(), newKeyId: newRow!.id, newPrefix: newRow!.prefix, expiresAt: newRow!.expires_at!.toISOString() },
      },
    ]);
    // The result page opened again shows no secret; the form sent again rolls nothing more.
    expect((await client.get(res.headers.location!)).text).toContain('data-secret-gone');
    const again = await client.post(rollPage, { overlap: '1h' });
    expect(again.headers.location).toBe(res.headers.location);
    expect(await keysOf(guild.id)).toHaveLength(2);
    // The list marks the old key as replaced and offers no second roll of either while the overlap lasts.
    const list = await client.get(`/console/servers/${guild.id}/keys`);
    expect(list.text).toMatch(new RegExp(`data-key-id="${old.id}".*?data-expiry-warning="rolled"`, 's'));
    expect(list.text).not.toContain(`/keys/${old.id}/roll"`);
    expect(list.text).not.toContain(`/keys/${newRow!.id}/roll"`);
  });

  it('is not held back by the plan limit: the old key in its overlap does not count', async () => {
    const { guild, client, rollPage } = await managerWithKey({ plan: 'free' });
    await createTestKey(database.db, guild, { name: 'Second', clock });
    await roll(client, rollPage, '24h');
    const list = await client.get(`/console/servers/${guild.id}/keys`);
    expect(/data-key-count[^>]*>([^<]*)/.exec(list.text)?.[1]).toContain('2 of 2 keys in use');
  });

  it('refuses an overlap or expiry not offered 400 INVALID_INPUT on the confirmation page, the fields named and kept, nothing changed', async () => {
    const { guild, client, rollPage } = await managerWithKey();
    await client.get(rollPage);
    const before = await keysOf(guild.id);
    const res = await client.post(rollPage, { overlap: '30d', expires: '7' });
    expect(res.status).toBe(400);
    expect(errorCodeOf(res)).toBe('INVALID_INPUT');
    expect(res.text).toContain('<a href="#roll-overlap">');
    expect(res.text).toContain('<a href="#roll-expires">');
    expect(res.text).not.toMatch(/name="expires" value="90" checked/);
    expect(await keysOf(guild.id)).toEqual(before);
    expect(await auditOf(guild.id)).toEqual([]);
    // Corrected on the page that came back: rolled.
    expect((await client.post(rollPage, { overlap: '1h', expires: '30' })).status).toBe(303);
    expect(await keysOf(guild.id)).toHaveLength(2);
  });

  it.each([
    ['revoked', 'KEY_ALREADY_REVOKED'],
    ['expired', 'KEY_EXPIRED'],
    ['rolled', 'KEY_ALREADY_ROLLED'],
  ])('refuses to roll a key %s since its page was opened: 409 %s, nothing changed', async (what, code) => {
    const { guild, old, client, rollPage } = await managerWithKey({ expiresInDays: 30 });
    await client.get(rollPage);
    const staleTab = client.state.forms.get(rollPage);
    if (what === 'revoked') await revokeApiKey(database.db, clock, { guildId: guild.id, id: old.id, actor: { type: 'system' } });
    if (what === 'expired') await database.db.updateTable('api_keys').set({ expires_at: clock.now() }).where('id', '=', old.id).execute();
    if (what === 'rolled') await roll(client, rollPage, '24h');
    await client.get('/console');
    const before = { keys: await keysOf(guild.id), audit: await auditOf(guild.id) };
    const res = await client.post(rollPage, { overlap: '1h' }, { form: staleTab });
    expect(res.status).toBe(409);
    expect(errorCodeOf(res)).toBe(code);
    expect((await client.get(rollPage)).status).toBe(409);
    expect({ keys: await keysOf(guild.id), audit: await auditOf(guild.id) }).toEqual(before);
  });

  it('refuses to roll the replacement while the key it replaced still works: 409 KEY_ROLL_IN_PROGRESS, nothing changed', async () => {
    const { guild, client, rollPage } = await managerWithKey();
    await roll(client, rollPage, '7d');
    const [, replacement] = await keysOf(guild.id);
    const replacementPage = `/console/servers/${guild.id}/keys/${replacement!.id}/roll`;
    const refused = await client.get(replacementPage);
    expect(refused.status).toBe(409);
    expect(errorCodeOf(refused)).toBe('KEY_ROLL_IN_PROGRESS');
    expect(await keysOf(guild.id)).toHaveLength(2);
    // Once the old key has stopped, the replacement rolls.
    clock.advance(7 * 24 * HOUR);
    await client.signIn(guild.managerId);
    await roll(client, replacementPage, 'now');
    expect(await keysOf(guild.id)).toHaveLength(3);
  });

  it("refuses another server's key through this server's pages (404 KEY_NOT_FOUND), the key unchanged", async () => {
    const a = await managerWithKey();
    const b = await managerWithKey();
    const res = await a.client.get(`/console/servers/${a.guild.id}/keys/${b.old.id}/roll`);
    expect(res.status).toBe(404);
    expect(errorCodeOf(res)).toBe('KEY_NOT_FOUND');
    const post = await a.client.post(`/console/servers/${a.guild.id}/keys/${b.old.id}/roll`, { overlap: 'now' });
    expect(post.status).toBe(404);
    expect((await keysOf(b.guild.id)).map((k) => [k.rolled_into, k.expires_at])).toEqual([[null, null]]);
  });
});
