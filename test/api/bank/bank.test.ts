import { beforeAll, describe, expect, it } from 'vitest';
import { findLedgerMismatches, saveBankSettings } from '../../../db/bank/accounts.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

const { database, app } = useApiTestBed();

const currency = { name: 'gem', plural: 'gems', emoji: '💎' };

async function bankGuild(options: { startingBalance?: number; maxBalance?: number | null } = {}) {
  const guild = await createTestGuild(database.db);
  await saveBankSettings(database.db, guild.id, {
    currency,
    startingBalance: options.startingBalance ?? 0,
    maxBalance: options.maxBalance ?? null,
    logChannelId: null,
  });
  const { key } = await createTestKey(database.db, guild, { scopes: ['bank:read', 'bank:write'] });
  const userId = await addTestMember(database.db, guild);
  return { guild, key, userId };
}

const post = (guild: TestGuild, key: string, userId: string, body: unknown, headers: Record<string, string> = {}) =>
  app.http('POST', `/guilds/${guild.id}/bank/members/${userId}/transactions`, { headers: { ...bearer(key), ...headers }, body });

describe('GET balance', () => {
  it("gives a member without an account the server's starting balance and currency", async () => {
    const { guild, key, userId } = await bankGuild({ startingBalance: 250 });
    const res = await app.http('GET', `/guilds/${guild.id}/bank/members/${userId}`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId, balance: 250, currency });
  });

  it('uses the default currency when the server configured none', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['bank:read'] });
    const res = await app.http('GET', `/guilds/${guild.id}/bank/members/${snowflake()}`, { headers: bearer(key) });
    expect(res.body).toMatchObject({ balance: 0, currency: { name: 'coin', plural: 'coins', emoji: '🪙' } });
  });
});

describe('POST transactions', () => {
  it('adds, records ledger type api, one event with the spec fields and one audit row', async () => {
    const { guild, key, userId } = await bankGuild({ startingBalance: 100 });
    const res = await post(guild, key, userId, { type: 'add', amount: 50, reason: 'quest reward' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      transactionId: expect.any(Number),
      userId,
      type: 'add',
      amount: 50,
      previousBalance: 100,
      balance: 150,
      createdAt: expect.any(String),
    });
    const ledger = await database.db.selectFrom('bank_ledger').selectAll().where('guild_id', '=', guild.id).orderBy('id').execute();
    expect(ledger.map((l) => [l.type, l.amount, l.balance_after])).toEqual([
      ['starting_balance', 100, 100],
      ['api', 50, 150],
    ]);
    const events = await database.db.selectFrom('events').selectAll().where('guild_id', '=', guild.id).orderBy('seq').execute();
    expect(events).toHaveLength(2);
    expect(events[1]!.id).toMatch(/^evt_/);
    expect(events[1]!.type).toBe('bank.transaction');
    expect(events[1]!.data).toEqual({
      transactionId: res.body.transactionId,
      userId,
      type: 'api',
      amount: 50,
      balanceAfter: 150,
      reason: 'quest reward',
      counterpartyId: null,
      actorId: guild.ownerId,
      createdAt: res.body.createdAt,
    });
    const audit = await database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('guild_id', '=', guild.id)
      .where('action', '=', 'bank.transaction')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_type: 'api_key', target_id: userId, request_id: res.headers['x-request-id'] });
  });

  it('removes and reports a negative amount', async () => {
    const { guild, key, userId } = await bankGuild({ startingBalance: 100 });
    const res = await post(guild, key, userId, { type: 'remove', amount: 40 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'remove', amount: 40, previousBalance: 100, balance: 60 });
    const last = await database.db.selectFrom('bank_ledger').selectAll().where('guild_id', '=', guild.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(last).toMatchObject({ type: 'api', amount: -40, balance_after: 60, reason: null });
  });

  it('answers 409 INSUFFICIENT_FUNDS with the balance and changes nothing', async () => {
    const { guild, key, userId } = await bankGuild({ startingBalance: 30 });
    const before = await countWrites(database.db, guild.id);
    const res = await post(guild, key, userId, { type: 'remove', amount: 31 }, { 'Idempotency-Key': 'too-much' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'INSUFFICIENT_FUNDS', message: expect.any(String), balance: 30 });
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('answers 422 BALANCE_LIMIT above the configured maximum and changes nothing', async () => {
    const { guild, key, userId } = await bankGuild({ maxBalance: 1000 });
    expect((await post(guild, key, userId, { type: 'add', amount: 1000 })).status).toBe(201);
    const before = await countWrites(database.db, guild.id);
    const res = await post(guild, key, userId, { type: 'add', amount: 1 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'BALANCE_LIMIT' });
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('keeps balances inside Number.MAX_SAFE_INTEGER without a configured maximum', async () => {
    const { guild, key, userId } = await bankGuild({ startingBalance: Number.MAX_SAFE_INTEGER - 10 });
    const res = await post(guild, key, userId, { type: 'add', amount: 11 });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('BALANCE_LIMIT');
  });

  it.each([
    ['a stranger', 'MEMBER_NOT_FOUND', 404, false],
    ['a bot account', 'BOT_ACCOUNT', 422, true],
  ])('refuses %s with %s and changes nothing', async (_label, code, status, isBot) => {
    const { guild, key } = await bankGuild();
    const target = isBot ? guild.botUserId : snowflake();
    const before = await countWrites(database.db, guild.id);
    const res = await post(guild, key, target, { type: 'add', amount: 5 });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: code, message: expect.any(String) });
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it.each([
    ['amount 0', { type: 'add', amount: 0 }, 'amount'],
    ['amount above 10^12', { type: 'add', amount: 1_000_000_000_001 }, 'amount'],
    ['a fractional amount', { type: 'add', amount: 1.5 }, 'amount'],
    ['a string amount', { type: 'add', amount: '5' }, 'amount'],
    ['an unknown type', { type: 'set', amount: 5 }, 'type'],
    ['a missing type', { amount: 5 }, 'type'],
    ['a reason over 200 characters', { type: 'add', amount: 5, reason: 'x'.repeat(201) }, 'reason'],
    ['an unknown field', { type: 'add', amount: 5, note: 'hi' }, ''],
    ['an array body', [1, 2], ''],
  ])('answers 400 INVALID_REQUEST for %s and changes nothing', async (_label, body, path) => {
    const { guild, key, userId } = await bankGuild();
    const before = await countWrites(database.db, guild.id);
    const res = await post(guild, key, userId, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_REQUEST');
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'body', path })]));
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('answers 400 INVALID_JSON, 415 and 413 without changing anything', async () => {
    const { guild, key, userId } = await bankGuild();
    const before = await countWrites(database.db, guild.id);
    const badJson = await post(guild, key, userId, '{"type": "add", "amount": ');
    expect(badJson.status).toBe(400);
    expect(badJson.body.error).toBe('INVALID_JSON');
    const text = await post(guild, key, userId, 'type=add&amount=5', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(text.status).toBe(415);
    expect(text.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    const huge = await post(guild, key, userId, { type: 'add', amount: 5, reason: 'x'.repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', limit: 65_536 });
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('never overdraws under concurrent removes, and every balance equals its ledger', async () => {
    const { guild, key, userId } = await bankGuild({ startingBalance: 100 });
    const results = await Promise.all(Array.from({ length: 30 }, () => post(guild, key, userId, { type: 'remove', amount: 10 })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20);
    const balance = await app.http('GET', `/guilds/${guild.id}/bank/members/${userId}`, { headers: bearer(key) });
    expect(balance.body.balance).toBe(0);
    expect(await findLedgerMismatches(database.db, guild.id)).toEqual([]);
    const events = await countWrites(database.db, guild.id);
    expect(events.events).toBe(11);
  });
});

describe('GET transactions', () => {
  it('pages newest first with a stable cursor while rows are added', async () => {
    const { guild, key, userId } = await bankGuild();
    for (let i = 1; i <= 5; i++) await post(guild, key, userId, { type: 'add', amount: i });
    const url = `/guilds/${guild.id}/bank/members/${userId}/transactions`;
    const first = await app.http('GET', `${url}?limit=2`, { headers: bearer(key) });
    expect(first.status).toBe(200);
    expect(first.body.items.map((t: { amount: number }) => t.amount)).toEqual([5, 4]);
    expect(first.body.items[0]).toEqual({
      id: expect.any(Number),
      type: 'api',
      amount: 5,
      balanceAfter: 15,
      reason: null,
      counterpartyId: null,
      createdAt: expect.any(String),
    });
    await post(guild, key, userId, { type: 'add', amount: 100 });
    const second = await app.http('GET', `${url}?limit=2&before=${first.body.nextCursor}`, { headers: bearer(key) });
    expect(second.body.items.map((t: { amount: number }) => t.amount)).toEqual([3, 2]);
    const last = await app.http('GET', `${url}?limit=2&before=${second.body.nextCursor}`, { headers: bearer(key) });
    expect(last.body).toEqual({ items: [expect.objectContaining({ amount: 1 })], nextCursor: null });
  });

  it.each(['limit=0', 'limit=101', 'limit=x', 'before=0', 'before=-1', 'before=1.5'])('answers 400 for %s', async (query) => {
    const { guild, key, userId } = await bankGuild();
    const res = await app.http('GET', `/guilds/${guild.id}/bank/members/${userId}/transactions?${query}`, { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body.issues[0]).toMatchObject({ location: 'query', path: query.split('=')[0] });
  });
});

describe('GET leaderboard', () => {
  it('orders by balance, ties by user id, and carries the currency', async () => {
    const { guild, key } = await bankGuild();
    const ids = ['100000000000000003', '100000000000000001', '100000000000000002'];
    for (const id of ids) await addTestMember(database.db, guild, { userId: id });
    await post(guild, key, ids[0]!, { type: 'add', amount: 10 });
    await post(guild, key, ids[1]!, { type: 'add', amount: 10 });
    await post(guild, key, ids[2]!, { type: 'add', amount: 99 });
    const res = await app.http('GET', `/guilds/${guild.id}/bank/leaderboard?limit=3`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { rank: 1, userId: ids[2], balance: 99 },
        { rank: 2, userId: ids[1], balance: 10 },
        { rank: 3, userId: ids[0], balance: 10 },
      ],
      currency,
    });
  });
});

describe('feature gate', () => {
  let guild: TestGuild;
  let key: string;
  beforeAll(async () => {
    guild = await createTestGuild(database.db, { features: ['levels'] });
    ({ key } = await createTestKey(database.db, guild, { scopes: ['bank:read', 'bank:write'] }));
  });

  it.each([
    ['GET', '/bank/members/100000000000000001'],
    ['GET', '/bank/members/100000000000000001/transactions'],
    ['POST', '/bank/members/100000000000000001/transactions'],
    ['GET', '/bank/leaderboard'],
  ])('%s %s answers 409 BANK_DISABLED', async (method, path) => {
    const res = await app.http(method, `/guilds/${guild.id}${path}`, {
      headers: bearer(key),
      body: method === 'POST' ? { type: 'add', amount: 1 } : undefined,
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'BANK_DISABLED', message: expect.any(String) });
    expect((await countWrites(database.db, guild.id)).ledger).toBe(0);
  });
});
