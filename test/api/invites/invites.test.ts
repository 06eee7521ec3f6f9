import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/core/features.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

const { database, app } = useApiTestBed();

async function invitesGuild() {
  const guild = await createTestGuild(database.db);
  const { key } = await createTestKey(database.db, guild, { scopes: ['invites:read', 'invites:write'] });
  const userId = await addTestMember(database.db, guild);
  return { guild, key, userId };
}

/** Attributed joins are not reachable through the API: the board's verified counts are seeded directly. */
async function seedInviter(guild: TestGuild, userId: string, counts: { verified?: number; bonus?: number; pending?: number }) {
  await database.db
    .insertInto('invite_members')
    .values({
      guild_id: guild.id,
      user_id: userId,
      verified: counts.verified ?? 0,
      pending: counts.pending ?? 0,
      bonus: counts.bonus ?? 0,
      total: (counts.verified ?? 0) + (counts.pending ?? 0),
      updated_at: new Date(),
    })
    .execute();
}

const getMember = (guild: TestGuild, key: string, userId: string) =>
  app.http('GET', `/guilds/${guild.id}/invites/members/${userId}`, { headers: bearer(key) });
const getBoard = (guild: TestGuild, key: string, query = '') =>
  app.http('GET', `/guilds/${guild.id}/invites/leaderboard${query}`, { headers: bearer(key) });
const postBonus = (guild: TestGuild, key: string, userId: string, body: unknown, headers: Record<string, string> = {}) =>
  app.http('POST', `/guilds/${guild.id}/invites/members/${userId}/bonus`, { headers: { ...bearer(key), ...headers }, body });

const bonusAudit = (guild: TestGuild) =>
  database.db.selectFrom('audit_log').selectAll().where('guild_id', '=', guild.id).where('action', '=', 'invites.bonus').execute();

describe('GET member', () => {
  it('gives zeros, no rank and no season to a member who invited nobody', async () => {
    const { guild, key } = await invitesGuild();
    const userId = snowflake();
    const res = await getMember(guild, key, userId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId, invites: 0, verified: 0, pending: 0, left: 0, fake: 0, bonus: 0, total: 0, rank: null, season: null });
  });

  it('reports the buckets, invites = verified + bonus and a rank shared with ties', async () => {
    const { guild, key, userId } = await invitesGuild();
    await seedInviter(guild, userId, { verified: 4, bonus: 1, pending: 2 });
    await seedInviter(guild, snowflake(), { verified: 9 });
    await seedInviter(guild, snowflake(), { verified: 5 });
    const res = await getMember(guild, key, userId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId, invites: 5, verified: 4, pending: 2, left: 0, fake: 0, bonus: 1, total: 6, rank: 2, season: null });
  });

  it('never reports invites below 0 and leaves such a member unranked', async () => {
    const { guild, key, userId } = await invitesGuild();
    await seedInviter(guild, userId, { verified: 2, bonus: -5 });
    const res = await getMember(guild, key, userId);
    expect(res.body).toMatchObject({ invites: 0, verified: 2, bonus: -5, rank: null });
  });
});

describe('GET leaderboard', () => {
  it('ranks by invites with shared ranks, ties by user id, and pages with cursor', async () => {
    const { guild, key } = await invitesGuild();
    const ids = ['100000000000000001', '100000000000000002', '100000000000000003', '100000000000000004', '100000000000000005'];
    await seedInviter(guild, ids[0]!, { verified: 3 });
    await seedInviter(guild, ids[1]!, { verified: 5, bonus: 2 });
    await seedInviter(guild, ids[2]!, { verified: 1, bonus: 2 });
    await seedInviter(guild, ids[3]!, { verified: 1 });
    await seedInviter(guild, ids[4]!, { bonus: -3, verified: 2 });
    await seedInviter(guild, snowflake(), { pending: 4 });

    const first = await getBoard(guild, key, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      period: 'all',
      season: null,
      items: [
        { rank: 1, userId: ids[1], score: 7, invites: 7, verified: 5, bonus: 2 },
        { rank: 2, userId: ids[0], score: 3, invites: 3, verified: 3, bonus: 0 },
      ],
      total: 4,
      nextCursor: '2',
    });
    const second = await getBoard(guild, key, '?limit=2&cursor=2');
    expect(second.body.items).toEqual([
      { rank: 2, userId: ids[2], score: 3, invites: 3, verified: 1, bonus: 2 },
      { rank: 4, userId: ids[3], score: 1, invites: 1, verified: 1, bonus: 0 },
    ]);
    expect(second.body.nextCursor).toBeNull();
    const past = await getBoard(guild, key, '?cursor=10000000');
    expect(past.body).toEqual({ period: 'all', season: null, items: [], total: 4, nextCursor: null });
  });

  it('answers the default page of 25 and an empty board', async () => {
    const { guild, key } = await invitesGuild();
    for (let i = 0; i < 26; i++) await seedInviter(guild, snowflake(), { verified: i + 1 });
    const res = await getBoard(guild, key);
    expect(res.body.items).toHaveLength(25);
    expect(res.body.items[0]).toMatchObject({ rank: 1, score: 26 });
    expect(res.body).toMatchObject({ total: 26, nextCursor: '25' });
    const other = await invitesGuild();
    expect((await getBoard(other.guild, other.key)).body).toEqual({ period: 'all', season: null, items: [], total: 0, nextCursor: null });
  });

  it('is empty for period season without an active season', async () => {
    const { guild, key, userId } = await invitesGuild();
    await seedInviter(guild, userId, { verified: 3 });
    const res = await getBoard(guild, key, '?period=season');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ period: 'season', season: null, items: [], total: 0, nextCursor: null });
  });

  it.each([
    ['period', '?period=week'],
    ['limit', '?limit=0'],
    ['limit', '?limit=101'],
    ['cursor', '?cursor=-1'],
    ['cursor', '?cursor=10000001'],
    ['cursor', '?cursor=1.5'],
  ])('answers 400 INVALID_REQUEST for a bad %s (%s)', async (path, query) => {
    const { guild, key } = await invitesGuild();
    const res = await getBoard(guild, key, query);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'query', path })]));
  });
});

describe('POST bonus', () => {
  it('adds bonus invites, answers 201 BonusResult and writes one audit row', async () => {
    const { guild, key, userId } = await invitesGuild();
    await seedInviter(guild, userId, { verified: 3, bonus: 1 });
    const res = await postBonus(guild, key, userId, { amount: 5, reason: 'event winner' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ userId, amount: 5, previousBonus: 1, bonus: 6, invites: 9, verified: 3 });
    expect((await getMember(guild, key, userId)).body).toMatchObject({ invites: 9, bonus: 6, verified: 3, rank: 1 });
    const audit = await bonusAudit(guild);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_type: 'api_key',
      actor_id: guild.ownerId,
      target_type: 'member',
      target_id: userId,
      request_id: res.headers['x-request-id'],
      data: { amount: 5, reason: 'event winner', previousBonus: 1, bonus: 6 },
    });
  });

  it('removes bonus below zero while invites stay at 0', async () => {
    const { guild, key, userId } = await invitesGuild();
    const res = await postBonus(guild, key, userId, { amount: -100_000 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ userId, amount: -100_000, previousBonus: 0, bonus: -100_000, invites: 0, verified: 0 });
    expect((await bonusAudit(guild))[0]!.data).toMatchObject({ reason: null });
  });

  it('accepts the bounds and 0', async () => {
    const { guild, key, userId } = await invitesGuild();
    expect((await postBonus(guild, key, userId, { amount: 100_000 })).body).toMatchObject({ bonus: 100_000, invites: 100_000 });
    expect((await postBonus(guild, key, userId, { amount: 0 })).body).toMatchObject({ previousBonus: 100_000, bonus: 100_000 });
  });

  it('replays an Idempotency-Key, refuses its reuse with another body, and changes nothing twice', async () => {
    const { guild, key, userId } = await invitesGuild();
    const first = await postBonus(guild, key, userId, { amount: 2 }, { 'Idempotency-Key': 'bonus-1' });
    const again = await postBonus(guild, key, userId, { amount: 2 }, { 'Idempotency-Key': 'bonus-1' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const reused = await postBonus(guild, key, userId, { amount: 3 }, { 'Idempotency-Key': 'bonus-1' });
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await getMember(guild, key, userId)).body.bonus).toBe(2);
    expect(await bonusAudit(guild)).toHaveLength(1);
  });

  it('applies concurrent bonuses one after the other', async () => {
    const { guild, key, userId } = await invitesGuild();
    const results = await Promise.all(Array.from({ length: 10 }, () => postBonus(guild, key, userId, { amount: 1 })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(results.map((r) => r.body.bonus).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await getMember(guild, key, userId)).body.bonus).toBe(10);
  });

  it.each([
    ['a stranger', 'MEMBER_NOT_FOUND', 404, false],
    ['a bot account', 'BOT_ACCOUNT', 422, true],
  ])('refuses %s with %s and changes nothing', async (_label, code, status, isBot) => {
    const { guild, key } = await invitesGuild();
    const target = isBot ? guild.botUserId : snowflake();
    const before = await countWrites(database.db, guild.id);
    const res = await postBonus(guild, key, target, { amount: 5 }, { 'Idempotency-Key': 'refused' });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: code, message: expect.any(String) });
    expect(await countWrites(database.db, guild.id)).toEqual(before);
    expect(await database.db.selectFrom('invite_members').selectAll().where('guild_id', '=', guild.id).execute()).toEqual([]);
  });

  it.each([
    ['amount above 100,000', { amount: 100_001 }, 'amount'],
    ['amount below -100,000', { amount: -100_001 }, 'amount'],
    ['a fractional amount', { amount: 1.5 }, 'amount'],
    ['a string amount', { amount: '5' }, 'amount'],
    ['a missing amount', {}, 'amount'],
    ['a reason over 200 characters', { amount: 1, reason: 'x'.repeat(201) }, 'reason'],
    ['an unknown field', { amount: 1, note: 'hi' }, ''],
  ])('answers 400 INVALID_REQUEST for %s and changes nothing', async (_label, body, path) => {
    const { guild, key, userId } = await invitesGuild();
    const before = await countWrites(database.db, guild.id);
    const res = await postBonus(guild, key, userId, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'body', path })]));
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('answers 400 INVALID_JSON and 415 without changing anything', async () => {
    const { guild, key, userId } = await invitesGuild();
    const before = await countWrites(database.db, guild.id);
    expect((await postBonus(guild, key, userId, '{"amount": ')).body.error).toBe('INVALID_JSON');
    const wrongType = await app.http('POST', `/guilds/${guild.id}/invites/members/${userId}/bonus`, {
      headers: { ...bearer(key), 'Content-Type': 'text/plain' },
      body: '{"amount": 1}',
    });
    expect(wrongType.status).toBe(415);
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });
});

describe('access', () => {
  it('answers 409 FEATURE_DISABLED on every endpoint while Invites is off', async () => {
    const guild = await createTestGuild(database.db, { features: FEATURES.filter((f) => f !== 'invites') });
    const { key } = await createTestKey(database.db, guild);
    const userId = await addTestMember(database.db, guild);
    for (const res of [await getMember(guild, key, userId), await getBoard(guild, key), await postBonus(guild, key, userId, { amount: 1 })]) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'FEATURE_DISABLED' });
    }
  });

  it('needs invites:read to read and invites:write to add bonus', async () => {
    const guild = await createTestGuild(database.db);
    const userId = await addTestMember(database.db, guild);
    const { key: reader } = await createTestKey(database.db, guild, { scopes: ['invites:read'] });
    const { key: writer } = await createTestKey(database.db, guild, { scopes: ['invites:write'] });
    const denied = await postBonus(guild, reader, userId, { amount: 1 });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: 'INSUFFICIENT_SCOPE', required: 'invites:write' });
    expect((await getBoard(guild, writer)).body).toMatchObject({ error: 'INSUFFICIENT_SCOPE', required: 'invites:read' });
    expect((await getMember(guild, reader, userId)).status).toBe(200);
  });
});
