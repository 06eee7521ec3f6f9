import { describe, expect, it } from 'vitest';
import { findGuild } from '../../db/guild/guilds.js';
import { findPlatformGuild, listPlatformMembers } from '../../db/platform/local.js';
import { fixedClock } from '../../src/core/clock.js';
import { FEATURES } from '../../src/core/features.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { cli, cliGuild } from './cli.js';

const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-22T10:00:00Z'));
const admin = cli(() => database.db, clock);

const auditOf = (guildId: string) =>
  database.db
    .selectFrom('audit_log')
    .select(['action', 'actor_type', 'actor_id', 'target_id', 'data'])
    .where('guild_id', '=', guildId)
    .orderBy('id')
    .execute();

describe('guild create', () => {
  it('registers the guild and the local platform server with owner and bot, and prints it as JSON', async () => {
    const [id, owner, bot] = [snowflake(), snowflake(), snowflake()];
    const res = await admin('guild', 'create', '--id', id, '--name', 'Dragons', '--locale', 'ru', '--plan', 'free', '--features', 'bank,levels', '--owner', owner, '--bot', bot, '--json');
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({
      id,
      name: 'Dragons',
      icon: null,
      locale: 'ru',
      plan: 'free',
      features: ['bank', 'levels'],
      blocked: false,
      ownerId: owner,
      limits: { activeApiKeys: 2, webhookEndpoints: 1 },
      activeKeyCount: 0,
    });
    expect(await findPlatformGuild(database.db, id)).toMatchObject({ owner_id: owner, bot_user_id: bot, name: 'Dragons' });
    const members = await listPlatformMembers(database.db, id);
    expect(members.map((m) => [m.user_id, m.bot]).sort()).toEqual([[owner, false], [bot, true]].sort());
    expect(await auditOf(id)).toEqual([expect.objectContaining({ action: 'guild.create', actor_type: 'operator', actor_id: 'alice', target_id: id })]);
  });

  it('uses defaults and generated owner and bot ids, and prints text', async () => {
    const id = snowflake();
    const res = await admin('guild', 'create', '--id', id, '--operator', 'bob');
    expect(res.code).toBe(0);
    const owner = (await findPlatformGuild(database.db, id))!.owner_id;
    expect(owner).toMatch(/^\d{17,20}$/);
    expect(res.stdout).toBe(
      [
        `Guild ${id} "Guild ${id}"`,
        '  plan      free (limits: API keys 2, webhook endpoints 1)',
        '  api keys  0 of 2 active',
        '  locale    en',
        '  features  -',
        '  blocked   false',
        `  owner     ${owner}`,
      ].join('\n'),
    );
    expect((await auditOf(id))[0]).toMatchObject({ actor_type: 'operator', actor_id: 'bob' });
  });

  it('refuses an id that is already registered', async () => {
    const { id } = await cliGuild(admin);
    const res = await admin('guild', 'create', '--id', id, '--json');
    expect(res.code).toBe(1);
    expect(res.error()).toEqual({ error: 'GUILD_EXISTS', message: `Guild ${id} already exists.` });
  });
});

describe('guild update', () => {
  it('changes features, plan, blocked, locale and name, and audits the change', async () => {
    const { id } = await cliGuild(admin, { plan: 'free' });
    const res = await admin('guild', 'update', '--id', id, '--plan', 'pro', '--features', 'all', '--blocked', 'true', '--locale', 'he', '--name', 'Renamed', '--json');
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ id, name: 'Renamed', plan: 'pro', features: [...FEATURES], blocked: true, locale: 'he', limits: { activeApiKeys: 10 } });
    expect(await findGuild(database.db, id)).toMatchObject({ name: 'Renamed', plan: 'pro', features: [...FEATURES], blocked: true, locale: 'he' });
    expect((await findPlatformGuild(database.db, id))?.name).toBe('Renamed');
    expect((await auditOf(id)).at(-1)).toMatchObject({
      action: 'guild.update',
      actor_type: 'operator',
      actor_id: 'alice',
      data: { name: 'Renamed', plan: 'pro', features: [...FEATURES], blocked: true, locale: 'he' },
    });
  });

  it('changes only what is given: unblocks, and turns every feature off with "none"', async () => {
    const { id } = await cliGuild(admin);
    await admin('guild', 'update', '--id', id, '--blocked', 'true');
    const res = await admin('guild', 'update', '--id', id, '--blocked', 'false', '--features', 'none');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('  features  -');
    expect(await findGuild(database.db, id)).toMatchObject({ name: 'Ops Guild', plan: 'pro', features: [], blocked: false });
  });

  it('refuses an unknown guild', async () => {
    const id = snowflake();
    const res = await admin('guild', 'update', '--id', id, '--plan', 'pro');
    expect(res).toMatchObject({ code: 1, stdout: '', stderr: `error: Guild ${id} does not exist.` });
  });
});

describe('guild show', () => {
  it('shows the plan limits and the active key count (revoked and expired keys do not count)', async () => {
    const { id, ownerId } = await cliGuild(admin, { plan: 'free', features: 'all' });
    await admin('key', 'create', '--guild', id, '--name', 'a', '--scopes', 'all');
    const revoked = (await admin('key', 'create', '--guild', id, '--name', 'b', '--scopes', 'all', '--json')).json();
    await admin('key', 'revoke', '--guild', id, '--id', String(revoked.id));
    const text = await admin('guild', 'show', '--id', id);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      [
        `Guild ${id} "Ops Guild"`,
        '  plan      free (limits: API keys 2, webhook endpoints 1)',
        '  api keys  1 of 2 active',
        '  locale    en',
        '  features  all',
        '  blocked   false',
        `  owner     ${ownerId}`,
      ].join('\n'),
    );
    const json = await admin('guild', 'show', '--id', id, '--json');
    expect(json.json()).toMatchObject({ id, plan: 'free', limits: { activeApiKeys: 2 }, activeKeyCount: 1, ownerId });
  });

  it('answers GUILD_NOT_FOUND for an unknown guild', async () => {
    const id = snowflake();
    const res = await admin('guild', 'show', '--id', id, '--json');
    expect(res.code).toBe(1);
    expect(res.error()).toEqual({ error: 'GUILD_NOT_FOUND', message: `Guild ${id} does not exist.` });
  });
});
