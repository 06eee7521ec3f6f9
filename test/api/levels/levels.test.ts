import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

const { database, app } = useApiTestBed();

async function setup(features = ['levels'] as const) {
  const guild = await createTestGuild(database.db, { features: [...features] });
  const { key } = await createTestKey(database.db, guild, { scopes: ['levels:read', 'levels:write'] });
  const userId = await addTestMember(database.db, guild);
  return { guild, key, userId };
}

async function seedXp(guild: TestGuild, rows: Array<{ userId: string; xp: number; hidden?: boolean }>) {
  await database.db
    .insertInto('level_members')
    .values(rows.map((r) => ({ guild_id: guild.id, user_id: r.userId, xp: r.xp, hidden: r.hidden ?? false, last_xp_at: new Date() })))
    .execute();
}

const get = (guild: TestGuild, key: string, path: string) => app.http('GET', `/guilds/${guild.id}${path}`, { headers: bearer(key) });

describe('GET level member', () => {
  it('gives a member without activity zeros and no rank', async () => {
    const { guild, key, userId } = await setup();
    const res = await get(guild, key, `/levels/members/${userId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      userId,
      xp: 0,
      level: 0,
      xpIntoLevel: 0,
      xpForNext: 100,
      progress: 0,
      messages: 0,
      voiceMinutes: 0,
      streak: 0,
      bestStreak: 0,
      rank: null,
      hidden: false,
      lastXpAt: null,
    });
  });

  it('ranks by XP with ties by user id', async () => {
    const { guild, key } = await setup();
    const [a, b, c] = ['100000000000000001', '100000000000000002', '100000000000000003'];
    await seedXp(guild, [
      { userId: a, xp: 500 },
      { userId: b, xp: 900 },
      { userId: c, xp: 500 },
    ]);
    expect((await get(guild, key, `/levels/members/${b}`)).body.rank).toBe(1);
    expect((await get(guild, key, `/levels/members/${a}`)).body.rank).toBe(2);
    expect((await get(guild, key, `/levels/members/${c}`)).body).toMatchObject({ rank: 3, xp: 500, level: 3, xpIntoLevel: 25, xpForNext: 295 });
  });
});

describe('GET level leaderboard', () => {
  it('pages highest first, hides hidden members but keeps their rank', async () => {
    const { guild, key } = await setup();
    const ids = Array.from({ length: 5 }, (_, i) => `10000000000000000${i + 1}`);
    await seedXp(guild, [
      { userId: ids[0]!, xp: 50 },
      { userId: ids[1]!, xp: 400, hidden: true },
      { userId: ids[2]!, xp: 300 },
      { userId: ids[3]!, xp: 300 },
      { userId: ids[4]!, xp: 0 },
    ]);
    const first = await get(guild, key, '/levels/leaderboard?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      items: [
        { rank: 1, userId: null, hidden: true, xp: 400, level: 2, messages: 0, voiceMinutes: 0 },
        { rank: 2, userId: ids[2], hidden: false, xp: 300, level: 2, messages: 0, voiceMinutes: 0 },
      ],
      total: 4,
      nextCursor: '2',
    });
    const second = await get(guild, key, `/levels/leaderboard?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((r: { rank: number; userId: string }) => [r.rank, r.userId])).toEqual([
      [3, ids[3]],
      [4, ids[0]],
    ]);
    expect(second.body.nextCursor).toBeNull();
  });

  it.each(['limit=0', 'limit=101', 'cursor=-1', 'cursor=10000001', 'cursor=abc'])('answers 400 for %s', async (query) => {
    const { guild, key } = await setup();
    const res = await get(guild, key, `/levels/leaderboard?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.issues[0]).toMatchObject({ location: 'query', path: query.split('=')[0] });
  });
});

describe('POST xp-changes: synchronous refusals change nothing', () => {
  it.each([
    ['amount above 2,000,000,000', { type: 'add', amount: 2_000_000_001 }, 'amount'],
    ['a negative amount', { type: 'add', amount: -1 }, 'amount'],
    ['an unknown unit', { type: 'add', amount: 1, unit: 'stars' }, 'unit'],
    ['an unknown type', { type: 'double', amount: 1 }, 'type'],
    ['a long reason', { type: 'add', amount: 1, reason: 'r'.repeat(201) }, 'reason'],
  ])('400 INVALID_REQUEST for %s', async (_label, body, path) => {
    const { guild, key, userId } = await setup();
    const res = await app.http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, { headers: bearer(key), body });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([expect.objectContaining({ location: 'body', path })]);
    expect(await countXpChanges(guild)).toBe(0);
  });

  it.each([
    ['a stranger', 404, 'MEMBER_NOT_FOUND'],
    ['a bot', 422, 'BOT_ACCOUNT'],
  ])('refuses %s', async (label, status, code) => {
    const { guild, key } = await setup();
    const target = label === 'a bot' ? guild.botUserId : snowflake();
    const before = await countWrites(database.db, guild.id);
    const res = await app.http('POST', `/guilds/${guild.id}/levels/members/${target}/xp-changes`, {
      headers: bearer(key),
      body: { type: 'add', amount: 5 },
    });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: code, message: expect.any(String) });
    expect(await countXpChanges(guild)).toBe(0);
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('answers 409 FEATURE_DISABLED on every levels endpoint when Levels is off', async () => {
    const { guild, key, userId } = await setup(['bank'] as never);
    for (const [method, path] of [
      ['GET', `/levels/members/${userId}`],
      ['GET', '/levels/leaderboard'],
      ['POST', `/levels/members/${userId}/xp-changes`],
      ['GET', '/levels/xp-changes/xpc_AAAAAAAAAAAAAAAA'],
    ] as const) {
      const res = await app.http(method, `/guilds/${guild.id}${path}`, { headers: bearer(key), body: method === 'POST' ? { type: 'add', amount: 1 } : undefined });
      expect(res.status, path).toBe(409);
      expect(res.body.error).toBe('FEATURE_DISABLED');
    }
    expect(await countXpChanges(guild)).toBe(0);
  });
});

describe('XP change ownership and Idempotency-Key', () => {
  it('shows a change only to the key that made it', async () => {
    const { guild, key, userId } = await setup();
    const { key: other } = await createTestKey(database.db, guild, { scopes: ['levels:write'] });
    const res = await app.http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, { headers: bearer(key), body: { type: 'add', amount: 5 } });
    expect((await get(guild, key, `/levels/xp-changes/${res.body.changeId}`)).status).toBe(200);
    const foreign = await get(guild, other, `/levels/xp-changes/${res.body.changeId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'XP_CHANGE_NOT_FOUND', message: expect.any(String) });
    expect((await get(guild, key, '/levels/xp-changes/xpc_doesNotExist1234')).status).toBe(404);
    expect((await get(guild, key, '/levels/xp-changes/not-an-id')).status).toBe(400);
  });

  it('replays the same changeId for the same Idempotency-Key and stores one change', async () => {
    const { guild, key, userId } = await setup();
    const send = () =>
      app.http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, {
        headers: { ...bearer(key), 'Idempotency-Key': 'xp-1' },
        body: { type: 'add', amount: 5 },
      });
    const [a, b] = await Promise.all([send(), send()]);
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.body.changeId).toBe(a.body.changeId);
    expect(await countXpChanges(guild)).toBe(1);
  });
});

async function countXpChanges(guild: TestGuild): Promise<number> {
  const row = await sql<{ n: string }>`SELECT count(*) AS n FROM xp_changes WHERE guild_id = ${guild.id}`.execute(database.db);
  return Number(row.rows[0]!.n);
}
