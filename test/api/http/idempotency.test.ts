import { describe, expect, it } from 'vitest';
import { purgeExpiredIdempotencyRecords } from '../../../db/shared/idempotency.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, type TestGuild } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

const { database, clock, app } = useApiTestBed({ now: new Date('2026-11-22T12:00:30Z') });

async function setup() {
  const guild = await createTestGuild(database.db);
  const { key } = await createTestKey(database.db, guild, { scopes: ['bank:read', 'bank:write'] });
  const userId = await addTestMember(database.db, guild);
  return { guild, key, userId };
}

const post = (guild: TestGuild, key: string, userId: string, body: unknown, idempotencyKey?: string) =>
  app.http('POST', `/guilds/${guild.id}/bank/members/${userId}/transactions`, {
    headers: { ...bearer(key), ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }) },
    body,
  });

describe('Idempotency-Key', () => {
  it('replays the original status and body with Idempotent-Replayed and changes nothing', async () => {
    const { guild, key, userId } = await setup();
    const first = await post(guild, key, userId, { type: 'add', amount: 7 }, 'order-1');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const after = await countWrites(database.db, guild.id);
    // The same body with its keys in another order and other spacing is the same request.
    const again = await post(guild, key, userId, '{ "amount": 7,  "type": "add" }', 'order-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countWrites(database.db, guild.id)).toEqual(after);
  });

  it.each([
    ['a different body', { type: 'add', amount: 8 }, false],
    ['a different member', { type: 'add', amount: 7 }, true],
  ])('answers 422 IDEMPOTENCY_KEY_REUSED for %s', async (_label, body, otherMember) => {
    const { guild, key, userId } = await setup();
    await post(guild, key, userId, { type: 'add', amount: 7 }, 'reuse');
    const target = otherMember ? await addTestMember(database.db, guild) : userId;
    const before = await countWrites(database.db, guild.id);
    const res = await post(guild, key, target, body, 'reuse');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) });
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });

  it('keys are per API key: another key may use the same value', async () => {
    const { guild, key, userId } = await setup();
    const { key: other } = await createTestKey(database.db, guild, { scopes: ['bank:write'] });
    expect((await post(guild, key, userId, { type: 'add', amount: 1 }, 'shared')).status).toBe(201);
    const res = await post(guild, other, userId, { type: 'add', amount: 1 }, 'shared');
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('does not store a failed response: the key works again once the problem is fixed', async () => {
    const { guild, key, userId } = await setup();
    const failed = await post(guild, key, userId, { type: 'remove', amount: 5 }, 'retry-me');
    expect(failed.status).toBe(409);
    await post(guild, key, userId, { type: 'add', amount: 10 });
    const fixed = await post(guild, key, userId, { type: 'remove', amount: 5 }, 'retry-me');
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(fixed.body.balance).toBe(5);
  });

  it('makes simultaneous requests with one key wait for the first and share its response', async () => {
    const { guild, key, userId } = await setup();
    const results = await Promise.all(Array.from({ length: 8 }, () => post(guild, key, userId, { type: 'add', amount: 3 }, 'burst')));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const ids = new Set(results.map((r) => r.body.transactionId));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    const writes = await countWrites(database.db, guild.id);
    expect(writes).toMatchObject({ ledger: 1, events: 1, idempotency: 1 });
  });

  it('treats a retry without the header as a new change', async () => {
    const { guild, key, userId } = await setup();
    await post(guild, key, userId, { type: 'add', amount: 2 });
    const second = await post(guild, key, userId, { type: 'add', amount: 2 });
    expect(second.body.balance).toBe(4);
  });

  it('forgets a response after 24 hours, on read and by the purge', async () => {
    const { guild, key, userId } = await setup();
    await post(guild, key, userId, { type: 'add', amount: 1 }, 'old');
    clock.advance(24 * 3600_000 + 1000);
    try {
      const res = await post(guild, key, userId, { type: 'add', amount: 1 }, 'old');
      expect(res.status).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(res.body.balance).toBe(2);
      await post(guild, key, userId, { type: 'add', amount: 1 }, 'also-old');
      clock.advance(24 * 3600_000 + 1000);
      expect(await purgeExpiredIdempotencyRecords(database.db, clock.now())).toBeGreaterThanOrEqual(2);
      expect((await countWrites(database.db, guild.id)).idempotency).toBe(0);
    } finally {
      clock.set(new Date('2026-11-22T12:00:30Z'));
    }
  });

  it.each([
    ['101 characters', 'k'.repeat(101)],
    ['a non-ASCII character', 'clé'],
    ['a control character', 'a\tb'],
  ])('answers 400 INVALID_REQUEST for a key with %s and changes nothing', async (_label, value) => {
    const { guild, key, userId } = await setup();
    const before = await countWrites(database.db, guild.id);
    const res = await post(guild, key, userId, { type: 'add', amount: 1 }, value);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'INVALID_REQUEST',
      issues: [{ location: 'header', path: 'Idempotency-Key', message: expect.any(String) }],
    });
    expect(await countWrites(database.db, guild.id)).toEqual(before);
  });
});
