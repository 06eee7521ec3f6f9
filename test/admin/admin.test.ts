import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { findCredential } from '../../db/apiKeys.js';
import { findGuild } from '../../db/guilds.js';
import { runAdmin } from '../../src/admin/runAdmin.js';
import { fixedClock } from '../../src/clock.js';
import { SCOPES } from '../../src/domain/scopes.js';
import { hashApiKey } from '../../src/keys/keyMaterial.js';
import { useTestDatabase } from '../harness/database.js';
import { bearer, snowflake } from '../harness/fixtures.js';
import { useTestApp } from '../harness/testApp.js';

const database = useTestDatabase();
const app = useTestApp(() => database.db);
const clock = fixedClock(new Date('2026-11-22T10:00:00Z'));

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, {
    db: database.db,
    clock,
    io: { out: (l) => out.push(l), err: (l) => err.push(l) },
    operator: { type: 'operator', name: 'alice' },
  });
  return { code, out: out.join('\n'), err: err.join('\n'), json: () => JSON.parse(out.join('\n')) };
}

async function newGuild(plan: 'free' | 'pro' = 'pro') {
  const id = snowflake();
  const owner = snowflake();
  const res = await admin('guild', 'create', '--id', id, '--name', 'Ops Guild', '--plan', plan, '--features', 'bank,levels', '--owner', owner, '--json');
  expect(res.code).toBe(0);
  return { id, owner };
}

describe('guild commands', () => {
  it('creates, updates and shows a guild', async () => {
    const { id } = await newGuild('free');
    expect(await findGuild(database.db, id)).toMatchObject({ name: 'Ops Guild', plan: 'free', features: ['bank', 'levels'], blocked: false, locale: 'en' });
    const updated = await admin('guild', 'update', '--id', id, '--plan', 'pro', '--features', 'all', '--blocked', 'true', '--locale', 'he', '--json');
    expect(updated.code).toBe(0);
    expect(updated.json()).toMatchObject({ id, plan: 'pro', blocked: true, locale: 'he', limits: { activeApiKeys: 10 }, activeKeys: 0 });
    expect(updated.json().features).toHaveLength(11);
    const shown = await admin('guild', 'show', '--id', id);
    expect(shown.out).toContain(`Guild ${id} "Ops Guild"`);
    expect(shown.out).toContain('plan      pro (0/10 active API keys)');
  });

  it.each([
    [['guild', 'create', '--id', '123'], 2, 'snowflake'],
    [['guild', 'create', '--id', '100000000000000001', '--features', 'bank,lasers'], 2, 'Unknown feature(s): lasers'],
    [['guild', 'create', '--id', '100000000000000001', '--plan', 'gold'], 2, '--plan must be one of free, pro'],
    [['guild', 'create', '--id', '100000000000000001', '--colour', 'red'], 2, "Unknown option '--colour'"],
    [['guild', 'show', '--id', '100000000000000009'], 1, 'does not exist'],
    [['guild', 'update', '--id', '100000000000000009', '--plan', 'pro'], 1, 'does not exist'],
    [['guild', 'explode'], 2, 'Usage'],
  ])('refuses %j with exit code %i', async (argv, code, message) => {
    const res = await admin(...argv);
    expect(res.code).toBe(code);
    expect(res.err).toContain(message);
  });

  it('reports errors as JSON with --json', async () => {
    const res = await admin('guild', 'show', '--id', '100000000000000009', '--json');
    expect(JSON.parse(res.err)).toEqual({ error: 'GUILD_NOT_FOUND', message: expect.any(String) });
  });
});

describe('member commands', () => {
  it('adds, lists and removes members of the local platform', async () => {
    const { id } = await newGuild();
    const user = snowflake();
    const role = snowflake();
    expect((await admin('member', 'add', '--guild', id, '--user', user, '--username', 'zoe', '--roles', role)).code).toBe(0);
    expect((await admin('member', 'add', '--guild', id, '--user', snowflake(), '--username', 'robo', '--bot')).code).toBe(0);
    const list = await admin('member', 'list', '--guild', id, '--json');
    expect(list.json().items).toEqual(expect.arrayContaining([{ userId: user, username: 'zoe', bot: false, roles: [role] }, expect.objectContaining({ username: 'robo', bot: true })]));
    expect((await admin('member', 'remove', '--guild', id, '--user', user)).code).toBe(0);
    const again = await admin('member', 'remove', '--guild', id, '--user', user);
    expect(again.code).toBe(1);
    expect(again.err).toContain('is not a member');
  });
});

describe('key commands', () => {
  it('creates a key shown once, lists it without the secret, audits creation and revocation', async () => {
    const { id, owner } = await newGuild();
    const created = await admin('key', 'create', '--guild', id, '--name', 'backend', '--scopes', 'bank:read,guild:read', '--expires', '90', '--json');
    expect(created.code).toBe(0);
    const key = created.json();
    expect(key).toEqual({
      id: expect.any(Number),
      key: expect.stringMatching(/^svc_[A-Za-z0-9_-]{43}$/),
      prefix: key.key.slice(0, 12),
      scopes: ['bank:read', 'guild:read'],
      expiresAt: '2027-02-20T10:00:00.000Z',
    });
    const stored = await findCredential(database.db, hashApiKey(key.key));
    expect(stored?.apiKey).toMatchObject({ createdBy: owner, revokedAt: null });
    const listed = await admin('key', 'list', '--guild', id, '--json');
    expect(JSON.stringify(listed.json())).not.toContain(key.key);
    expect(listed.json().items).toEqual([expect.objectContaining({ id: key.id, name: 'backend', status: 'active', prefix: key.prefix })]);

    expect((await admin('key', 'revoke', '--guild', id, '--id', String(key.id))).code).toBe(0);
    expect((await findCredential(database.db, hashApiKey(key.key)))?.apiKey.revokedAt).toEqual(clock.now());
    expect((await admin('key', 'list', '--guild', id, '--json')).json().items[0].status).toBe('revoked');
    const audit = await database.db.selectFrom('audit_log').select(['action', 'actor_type', 'actor_id', 'target_id']).where('guild_id', '=', id).where('action', 'like', 'api_key.%').orderBy('id').execute();
    expect(audit).toEqual([
      { action: 'api_key.create', actor_type: 'operator', actor_id: 'alice', target_id: String(key.id) },
      { action: 'api_key.revoke', actor_type: 'operator', actor_id: 'alice', target_id: String(key.id) },
    ]);
  });

  it.each([
    ['free', 2],
    ['pro', 10],
  ] as const)('enforces the %s plan limit of %i active keys, and a revoked key frees a slot', async (plan, limit) => {
    const { id } = await newGuild(plan);
    const ids: number[] = [];
    for (let i = 0; i < limit; i++) ids.push((await admin('key', 'create', '--guild', id, '--name', `k${i}`, '--scopes', 'all', '--json')).json().id);
    const over = await admin('key', 'create', '--guild', id, '--name', 'one too many', '--scopes', 'all', '--json');
    expect(over.code).toBe(1);
    expect(JSON.parse(over.err)).toMatchObject({ error: 'KEY_LIMIT_REACHED' });
    await admin('key', 'revoke', '--guild', id, '--id', String(ids[0]));
    expect((await admin('key', 'create', '--guild', id, '--name', 'replacement', '--scopes', 'all')).code).toBe(0);
  });

  it.each([
    [['--scopes', 'bank:read,bank:fly'], 'Unknown scope(s): bank:fly'],
    [['--scopes', 'all', '--expires', '45'], '--expires must be one of 30, 90, 365'],
    [['--scopes', ''], '--scopes is required'],
  ])('refuses %j', async (flags, message) => {
    const { id } = await newGuild();
    const res = await admin('key', 'create', '--guild', id, '--name', 'x', ...flags);
    expect(res.code).toBe(2);
    expect(res.err).toContain(message);
  });

  it('gives "all" every scope, and the key keeps working after its creator leaves', async () => {
    const { id, owner } = await newGuild();
    const { key } = (await admin('key', 'create', '--guild', id, '--name', 'all', '--scopes', 'all', '--json')).json();
    expect((await findCredential(database.db, hashApiKey(key)))?.apiKey.scopes).toEqual([...SCOPES]);
    await admin('member', 'remove', '--guild', id, '--user', owner);
    const res = await app.http('GET', `/guilds/${id}`, { headers: bearer(key) });
    expect(res.status).toBe(200);
  });
});

describe('the admin entrypoint', () => {
  it('runs as a process against DATABASE_URL', async () => {
    const { id } = await newGuild();
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'src/entrypoints/admin.ts', 'guild', 'show', '--id', id, '--json'], {
      env: { ...process.env, DATABASE_URL: database.url },
    });
    expect(JSON.parse(stdout)).toMatchObject({ id, name: 'Ops Guild' });
  });
});
