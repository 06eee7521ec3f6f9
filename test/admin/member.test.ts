import { describe, expect, it } from 'vitest';
import { findPlatformMember } from '../../db/platform/local.js';
import { fixedClock } from '../../src/core/clock.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { cli, cliGuild } from './cli.js';

const database = useTestDatabase();
const admin = cli(() => database.db, fixedClock(new Date('2026-11-22T10:00:00Z')));

describe('member add', () => {
  it('adds a member with username, roles and the bot flag (JSON)', async () => {
    const { id } = await cliGuild(admin);
    const [user, roleA, roleB] = [snowflake(), snowflake(), snowflake()];
    const res = await admin('member', 'add', '--guild', id, '--user', user, '--username', 'zoe', '--bot', '--roles', `${roleA},${roleB}`, '--json');
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({ userId: user, username: 'zoe', bot: true, roles: [roleA, roleB] });
    expect(await findPlatformMember(database.db, id, user)).toMatchObject({ username: 'zoe', bot: true, role_ids: [roleA, roleB] });
  });

  it('defaults the username, and a second add replaces the member (text)', async () => {
    const { id } = await cliGuild(admin);
    const [user, role] = [snowflake(), snowflake()];
    const first = await admin('member', 'add', '--guild', id, '--user', user, '--roles', role);
    expect(first).toMatchObject({ code: 0, stdout: `Member ${user} (user${user.slice(-4)}) is in guild ${id}.` });
    await admin('member', 'add', '--guild', id, '--user', user, '--username', 'renamed');
    expect(await findPlatformMember(database.db, id, user)).toMatchObject({ username: 'renamed', bot: false, role_ids: [] });
  });

  it('refuses a guild that is not registered', async () => {
    const res = await admin('member', 'add', '--guild', snowflake(), '--user', snowflake(), '--json');
    expect(res.code).toBe(1);
    expect(res.error().error).toBe('GUILD_NOT_FOUND');
  });
});

describe('member remove', () => {
  it('removes a member (text and JSON), and refuses one who is not there', async () => {
    const { id } = await cliGuild(admin);
    const [a, b] = [snowflake(), snowflake()];
    await admin('member', 'add', '--guild', id, '--user', a);
    await admin('member', 'add', '--guild', id, '--user', b);
    expect(await admin('member', 'remove', '--guild', id, '--user', a)).toMatchObject({ code: 0, stdout: `Member ${a} left guild ${id}.` });
    expect((await admin('member', 'remove', '--guild', id, '--user', b, '--json')).json()).toEqual({ userId: b, removed: true });
    expect(await findPlatformMember(database.db, id, a)).toBeUndefined();
    const again = await admin('member', 'remove', '--guild', id, '--user', a, '--json');
    expect(again.code).toBe(1);
    expect(again.error()).toEqual({ error: 'MEMBER_NOT_FOUND', message: `User ${a} is not a member of guild ${id}.` });
  });
});

describe('member list', () => {
  it('lists {items: [{userId, username, bot, roles}]} with --json, including the owner and the bot', async () => {
    const { id, ownerId } = await cliGuild(admin);
    const [user, role] = [snowflake(), snowflake()];
    await admin('member', 'add', '--guild', id, '--user', user, '--username', 'zoe', '--roles', role);
    const res = await admin('member', 'list', '--guild', id, '--json');
    expect(res.code).toBe(0);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['items']);
    expect(body.items).toHaveLength(3);
    expect(body.items).toEqual(
      expect.arrayContaining([
        { userId: user, username: 'zoe', bot: false, roles: [role] },
        { userId: ownerId, username: 'owner', bot: false, roles: [] },
        { userId: expect.stringMatching(/^\d{17,20}$/), username: 'community-bot', bot: true, roles: [] },
      ]),
    );
    for (const item of body.items) expect(Object.keys(item).sort()).toEqual(['bot', 'roles', 'userId', 'username']);
  });

  it('prints a table', async () => {
    const { id, ownerId } = await cliGuild(admin);
    const res = await admin('member', 'list', '--guild', id);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toMatch(/^USER\s+USERNAME\s+BOT\s+ROLES$/);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${ownerId}\\s+owner\\s+no\\s+-$`)));
    expect(lines).toContainEqual(expect.stringMatching(/^\d{17,20}\s+community-bot\s+yes\s+-$/));
  });
});
