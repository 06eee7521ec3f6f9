import { once } from 'node:events';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../src/core/clock.js';
import { CredentialCache } from '../../../src/keys/credentialCache.js';
import { revokeApiKey } from '../../../src/keys/keyManagement.js';
import { useTestDatabase } from '../../harness/database.js';
import { bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';
import { startTestApp, type TestApp } from '../../harness/testApp.js';

// Two api instances on one database, each with its own credential cache and LISTEN connection, as two processes would run.
const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-25T12:00:00Z'));
type Instance = TestApp & { cache: CredentialCache; close(): Promise<void> };
const instances: Instance[] = [];

async function startInstance(): Promise<Instance> {
  const cache = new CredentialCache({ connectionString: database.url, maxEntries: 100, versionCheckMs: 3_600_000 });
  const listening = once(cache, 'listening');
  cache.start();
  await listening;
  const app = await startTestApp(database.db, { clock, deps: { credentials: cache } });
  const instance = { ...app, cache, close: () => app.close().then(() => cache.close()) };
  instances.push(instance);
  return instance;
}

let a: Instance;
let b: Instance;
beforeAll(async () => {
  a = await startInstance();
  b = await startInstance();
});
afterAll(async () => {
  for (const instance of instances) await instance.close();
});

async function guildAndKey(expiresInDays: 30 | null = null) {
  const guild = await createTestGuild(database.db);
  const created = await createTestKey(database.db, guild, { clock, expiresInDays });
  return { guild, key: created.key, keyId: created.id };
}

const getGuild = (app: TestApp, guildId: string, key: string) => app.http('GET', `/guilds/${guildId}`, { headers: bearer(key) });

describe('the credential cache of every api instance', () => {
  it('serves a usable key from memory once it was looked up', async () => {
    const { guild, key, keyId } = await guildAndKey();
    expect(b.cache.size).toBe(0);
    expect((await getGuild(b, guild.id, key)).status).toBe(200);
    expect(b.cache.size).toBe(1);
    // Revoked by a writer that turns the triggers off, so nothing is announced: a lookup would refuse the key, the
    // cached entry still answers, which shows the request did not look it up.
    await database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await trx.updateTable('api_keys').set({ revoked_at: clock.now() }).where('id', '=', keyId).execute();
    });
    const res = await getGuild(b, guild.id, key);
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('refuses a key revoked through one instance on the next request to the other (401 API_KEY_REVOKED), and the refusal changes nothing', async () => {
    const { guild, key, keyId } = await guildAndKey();
    expect((await getGuild(a, guild.id, key)).status).toBe(200);
    expect((await getGuild(b, guild.id, key)).status).toBe(200);
    expect(b.cache.size).toBeGreaterThan(0);
    const announced = once(b.cache, 'cleared');
    await revokeApiKey(a.deps.db, clock, { guildId: guild.id, id: keyId, actor: { type: 'system' } });
    expect(await announced).toEqual(['changed']);
    const before = await countWrites(database.db, guild.id);
    for (const instance of [b, a]) {
      const res = await getGuild(instance, guild.id, key);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'API_KEY_REVOKED', message: expect.any(String) });
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('applies a guild change (a feature turned off, the guild blocked) on the next request after its announcement', async () => {
    const { guild, key } = await guildAndKey();
    expect((await b.http('GET', `/guilds/${guild.id}/bank/members/${guild.ownerId}`, { headers: bearer(key) })).status).toBe(200);
    let announced = once(b.cache, 'cleared');
    await database.db.updateTable('guilds').set({ features: ['levels'] }).where('id', '=', guild.id).execute();
    await announced;
    const disabled = await b.http('GET', `/guilds/${guild.id}/bank/members/${guild.ownerId}`, { headers: bearer(key) });
    expect(disabled.status).toBe(409);
    expect(disabled.body).toEqual({ error: 'BANK_DISABLED', message: expect.any(String) });
    announced = once(b.cache, 'cleared');
    await database.db.updateTable('guilds').set({ blocked: true }).where('id', '=', guild.id).execute();
    await announced;
    const blocked = await getGuild(b, guild.id, key);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual({ error: 'GUILD_BLOCKED', message: expect.any(String) });
  });

  it('refuses a cached key once it has expired (401 API_KEY_EXPIRED), with no announcement', async () => {
    const { guild, key } = await guildAndKey(30);
    expect((await getGuild(b, guild.id, key)).status).toBe(200);
    clock.advance(31 * 86_400_000);
    const res = await getGuild(b, guild.id, key);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'API_KEY_EXPIRED', message: expect.any(String) });
  });

  it('does not store a lookup that began before a change', async () => {
    const { guild, key } = await guildAndKey();
    const generation = b.cache.generation;
    const announced = once(b.cache, 'cleared');
    await database.db.updateTable('guilds').set({ locale: 'ru' }).where('id', '=', guild.id).execute();
    await announced;
    const credential = { apiKey: {} as never, guild: {} as never };
    b.cache.remember('looked up before the change', credential, generation);
    expect(b.cache.get('looked up before the change')).toBeUndefined();
    expect((await getGuild(b, guild.id, key)).status).toBe(200);
    expect(b.cache.size).toBe(1);
  });

  it('drops everything when its listening connection is lost, looks keys up meanwhile, and starts empty once listening again', async () => {
    const c = await startInstance();
    const { guild, key, keyId } = await guildAndKey();
    expect((await getGuild(c, guild.id, key)).status).toBe(200);
    expect(c.cache.size).toBe(1);
    const lost = once(c.cache, 'lost');
    await sql`select pg_terminate_backend(${c.cache.backendPid()!})`.execute(database.db);
    await lost;
    expect(c.cache.listening).toBe(false);
    expect(c.cache.size).toBe(0);
    // The revocation's announcement is lost for c: it commits while c hears nothing.
    const back = once(c.cache, 'listening');
    await revokeApiKey(database.db, clock, { guildId: guild.id, id: keyId, actor: { type: 'system' } });
    const meanwhile = await getGuild(c, guild.id, key);
    expect(meanwhile.status).toBe(401);
    expect(meanwhile.body).toEqual({ error: 'API_KEY_REVOKED', message: expect.any(String) });
    await back;
    expect(c.cache.listening).toBe(true);
    expect(c.cache.size).toBe(0);
    const after = await getGuild(c, guild.id, key);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'API_KEY_REVOKED', message: expect.any(String) });
  });

  it('drops everything when the version check finds a change it did not hear announced', async () => {
    const { guild, key } = await guildAndKey();
    expect((await getGuild(b, guild.id, key)).status).toBe(200);
    expect(b.cache.size).toBeGreaterThan(0);
    // A number taken without its announcement: what a missed NOTIFY leaves behind.
    await sql`select nextval('credential_version')`.execute(database.db);
    const cleared = once(b.cache, 'cleared');
    await b.cache.checkVersion();
    expect(await cleared).toEqual(['version']);
    expect(b.cache.size).toBe(0);
  });
});
