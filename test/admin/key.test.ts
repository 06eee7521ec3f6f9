import { describe, expect, it } from 'vitest';
import { findCredential } from '../../db/keys/apiKeys.js';
import { fixedClock } from '../../src/core/clock.js';
import { SCOPES } from '../../src/core/scopes.js';
import { hashApiKey } from '../../src/keys/keyMaterial.js';
import { useTestDatabase } from '../harness/database.js';
import { bearer, snowflake } from '../harness/fixtures.js';
import { useTestApp } from '../harness/testApp.js';
import { cli, cliGuild } from './cli.js';

const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-22T10:00:00Z'));
const app = useTestApp(() => database.db, { clock });
const admin = cli(() => database.db, clock);

const credentialOf = async (key: string) => (await findCredential(database.db, hashApiKey(key)))?.apiKey;

const keyAudit = (guildId: string) =>
  database.db
    .selectFrom('audit_log')
    .select(['action', 'actor_type', 'actor_id', 'target_type', 'target_id', 'data'])
    .where('guild_id', '=', guildId)
    .where('action', 'like', 'api_key.%')
    .orderBy('id')
    .execute();

describe('key create', () => {
  it('prints {id, key, prefix, scopes, expiresAt} once with --json and stores only the hash', async () => {
    const { id, ownerId } = await cliGuild(admin);
    const res = await admin('key', 'create', '--guild', id, '--name', 'backend', '--scopes', 'bank:read,guild:read', '--json');
    expect(res.code).toBe(0);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      key: expect.stringMatching(/^svc_[A-Za-z0-9_-]{43}$/),
      prefix: created.key.slice(0, 12),
      scopes: ['bank:read', 'guild:read'],
      expiresAt: null,
    });
    expect(await credentialOf(created.key)).toMatchObject({ id: created.id, name: 'backend', createdBy: ownerId, revokedAt: null, expiresAt: null });
    const stored = await database.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(4));
  });

  it('prints the key in text, with "all" scopes and the creator given by --created-by', async () => {
    const { id } = await cliGuild(admin);
    const creator = snowflake();
    const res = await admin('key', 'create', '--guild', id, '--name', 'bot', '--scopes', 'all', '--created-by', creator);
    expect(res.code).toBe(0);
    const [head, keyLine, scopes, expires, warning] = res.stdout.split('\n');
    expect(head).toMatch(new RegExp(`^Created API key \\d+ "bot" for guild ${id}\\.$`));
    const key = /^ {2}key {6}(svc_\S{43})$/.exec(keyLine!)?.[1];
    expect(key).toBeDefined();
    expect([scopes, expires, warning]).toEqual(['  scopes   all', '  expires  never', 'This is the only time the key is shown: store it now.']);
    expect(await credentialOf(key!)).toMatchObject({ scopes: [...SCOPES], createdBy: creator });
  });

  it.each([
    ['30', '2026-12-22T10:00:00.000Z'],
    ['90', '2027-02-20T10:00:00.000Z'],
    ['365', '2027-11-22T10:00:00.000Z'],
  ])('--expires %s sets expiresAt to now + %s days', async (days, expiresAt) => {
    const { id } = await cliGuild(admin);
    const created = (await admin('key', 'create', '--guild', id, '--name', `d${days}`, '--scopes', 'guild:read', '--expires', days, '--json')).json();
    expect(created.expiresAt).toBe(expiresAt);
    expect((await credentialOf(created.key))?.expiresAt).toEqual(new Date(expiresAt));
  });

  it.each([
    ['free', 2],
    ['pro', 10],
  ] as const)('allows %s guilds %i active keys, refuses one more clearly, and a revocation frees a slot', async (plan, limit) => {
    const { id } = await cliGuild(admin, { plan });
    const ids: number[] = [];
    for (let i = 0; i < limit; i++) {
      const res = await admin('key', 'create', '--guild', id, '--name', `k${i}`, '--scopes', 'all', '--json');
      expect(res.code).toBe(0);
      ids.push(res.json().id);
    }
    const over = await admin('key', 'create', '--guild', id, '--name', 'one too many', '--scopes', 'all', '--json');
    expect(over.code).toBe(1);
    expect(over.stdout).toBe('');
    expect(over.error()).toEqual({
      error: 'KEY_LIMIT_REACHED',
      message: `Guild ${id} already has ${limit} active API keys, the most its ${plan} plan allows (${limit}). Revoke one first.`,
    });
    const text = await admin('key', 'create', '--guild', id, '--name', 'one too many', '--scopes', 'all');
    expect(text.stderr).toBe(`error: Guild ${id} already has ${limit} active API keys, the most its ${plan} plan allows (${limit}). Revoke one first.`);
    await admin('key', 'revoke', '--guild', id, '--id', String(ids[0]));
    expect((await admin('key', 'create', '--guild', id, '--name', 'replacement', '--scopes', 'all')).code).toBe(0);
  });

  it('refuses a guild that is not registered', async () => {
    const res = await admin('key', 'create', '--guild', snowflake(), '--name', 'x', '--scopes', 'all', '--json');
    expect(res.code).toBe(1);
    expect(res.error().error).toBe('GUILD_NOT_FOUND');
  });
});

describe('key list', () => {
  it('shows every key with its status, never the key or its hash', async () => {
    const listClock = fixedClock(clock.now());
    const listAdmin = cli(() => database.db, listClock);
    const { id, ownerId } = await cliGuild(listAdmin);
    const active = (await listAdmin('key', 'create', '--guild', id, '--name', 'active', '--scopes', 'guild:read,bank:read', '--json')).json();
    const revoked = (await listAdmin('key', 'create', '--guild', id, '--name', 'revoked', '--scopes', 'all', '--json')).json();
    const expiring = (await listAdmin('key', 'create', '--guild', id, '--name', 'expiring', '--scopes', 'all', '--expires', '30', '--json')).json();
    await listAdmin('key', 'revoke', '--guild', id, '--id', String(revoked.id));
    listClock.advance(31 * 86_400_000);

    const res = await listAdmin('key', 'list', '--guild', id, '--json');
    expect(res.code).toBe(0);
    const createdAt = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    expect(res.json()).toEqual({
      items: [
        { id: active.id, name: 'active', prefix: active.prefix, scopes: ['guild:read', 'bank:read'], createdBy: ownerId, createdAt, expiresAt: null, revokedAt: null, status: 'active' },
        { id: revoked.id, name: 'revoked', prefix: revoked.prefix, scopes: [...SCOPES], createdBy: ownerId, createdAt, expiresAt: null, revokedAt: '2026-11-22T10:00:00.000Z', status: 'revoked' },
        { id: expiring.id, name: 'expiring', prefix: expiring.prefix, scopes: [...SCOPES], createdBy: ownerId, createdAt, expiresAt: '2026-12-22T10:00:00.000Z', revokedAt: null, status: 'expired' },
      ],
    });
    const text = await listAdmin('key', 'list', '--guild', id);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+PREFIX\s+STATUS\s+SCOPES\s+CREATED BY\s+CREATED\s+EXPIRES\s+REVOKED$/);
    expect(lines[1]).toMatch(new RegExp(`^${active.id}\\s+active\\s+${active.prefix}\\s+active\\s+guild:read,bank:read\\s+${ownerId}\\s+\\S+\\s+never\\s+-$`));
    expect(lines[2]).toMatch(new RegExp(`^${revoked.id}\\s+revoked\\s+${revoked.prefix}\\s+revoked\\s+all\\s+.*2026-11-22T10:00:00.000Z$`));
    expect(lines[3]).toMatch(new RegExp(`^${expiring.id}\\s+expiring\\s+${expiring.prefix}\\s+expired\\s+all\\s+.*2026-12-22T10:00:00.000Z\\s+-$`));
    for (const output of [res.stdout, text.stdout]) {
      for (const key of [active.key, revoked.key, expiring.key]) expect(output).not.toContain(key);
      expect(output).not.toContain(hashApiKey(active.key).toString('hex'));
    }
  });
});

describe('key revoke', () => {
  it('revokes at once: findCredential shows revokedAt and the API refuses the key; a second revoke is refused', async () => {
    const { id } = await cliGuild(admin);
    const created = (await admin('key', 'create', '--guild', id, '--name', 'doomed', '--scopes', 'guild:read', '--json')).json();
    expect((await app.http('GET', `/guilds/${id}`, { headers: bearer(created.key) })).status).toBe(200);

    const res = await admin('key', 'revoke', '--guild', id, '--id', String(created.id));
    expect(res).toMatchObject({ code: 0, stdout: `Revoked API key ${created.id} "doomed" (${created.prefix}...) of guild ${id}.` });
    expect((await credentialOf(created.key))?.revokedAt).toEqual(clock.now());
    const refused = await app.http('GET', `/guilds/${id}`, { headers: bearer(created.key) });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('API_KEY_REVOKED');

    const again = await admin('key', 'revoke', '--guild', id, '--id', String(created.id), '--json');
    expect(again.code).toBe(1);
    expect(again.error()).toEqual({
      error: 'KEY_ALREADY_REVOKED',
      message: `API key ${created.id} of guild ${id} was already revoked at 2026-11-22T10:00:00.000Z.`,
    });
  });

  it('prints JSON, and refuses a key of another guild as not found', async () => {
    const { id } = await cliGuild(admin);
    const other = await cliGuild(admin);
    const created = (await admin('key', 'create', '--guild', id, '--name', 'mine', '--scopes', 'guild:read', '--json')).json();
    const foreign = await admin('key', 'revoke', '--guild', other.id, '--id', String(created.id), '--json');
    expect(foreign.code).toBe(1);
    expect(foreign.error()).toEqual({ error: 'KEY_NOT_FOUND', message: `Guild ${other.id} has no API key ${created.id}.` });
    const res = await admin('key', 'revoke', '--guild', id, '--id', String(created.id), '--json');
    expect(res.json()).toEqual({ id: created.id, name: 'mine', prefix: created.prefix, revokedAt: '2026-11-22T10:00:00.000Z' });
  });
});

describe('audit log', () => {
  it('records key creation and revocation with the operator as actor (--operator, else the default name)', async () => {
    const { id } = await cliGuild(admin);
    const created = (await admin('key', 'create', '--guild', id, '--name', 'audited', '--scopes', 'guild:read', '--expires', '30', '--operator', 'carol', '--json')).json();
    await admin('key', 'revoke', '--guild', id, '--id', String(created.id));
    expect(await keyAudit(id)).toEqual([
      {
        action: 'api_key.create',
        actor_type: 'operator',
        actor_id: 'carol',
        target_type: 'api_key',
        target_id: String(created.id),
        data: { name: 'audited', prefix: created.prefix, scopes: ['guild:read'], expiresAt: '2026-12-22T10:00:00.000Z' },
      },
      {
        action: 'api_key.revoke',
        actor_type: 'operator',
        actor_id: 'alice',
        target_type: 'api_key',
        target_id: String(created.id),
        data: { name: 'audited', prefix: created.prefix },
      },
    ]);
  });
});

describe('a key whose creator left', () => {
  it('keeps working', async () => {
    const { id, ownerId } = await cliGuild(admin);
    const created = (await admin('key', 'create', '--guild', id, '--name', 'owner key', '--scopes', 'guild:read', '--json')).json();
    expect((await credentialOf(created.key))?.createdBy).toBe(ownerId);
    expect((await admin('member', 'remove', '--guild', id, '--user', ownerId)).code).toBe(0);

    expect(await credentialOf(created.key)).toMatchObject({ createdBy: ownerId, revokedAt: null });
    const res = await app.http('GET', `/guilds/${id}`, { headers: bearer(created.key) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: 'Ops Guild' });
  });
});
