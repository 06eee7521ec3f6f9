import { describe, expect, it } from 'vitest';
import { readHits } from '../../../db/shared/rateLimits.js';
import { currentWindow } from '../../../src/core/fixedWindow.js';
import { revokeApiKey } from '../../../src/keys/keyManagement.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

// The address throttle slows down key guessing: it refuses failures, never a caller that holds a valid key.
// Customers behind one address (a NAT, a shared egress proxy) must not lock each other out with a bad key.
// Every request of this file comes from 127.0.0.1; the default limit of 20 failures per minute applies.
const START = new Date('2026-11-22T12:00:10Z');
const { db, app, clock } = useApiTestBed({ now: START });

const LIMIT = 20;
const WELL_FORMED_UNKNOWN = `svc_${'B'.repeat(43)}`;
const failures = () => readHits(db(), 'auth-failures:127.0.0.1', currentWindow(clock.now()).start);
// Hits after a window's first are counted in memory and written in batches: flush them before reading the row.
const keyHits = async (keyId: number) => {
  await app.deps.keyHits.flush();
  return readHits(db(), `key:${keyId}`, currentWindow(clock.now()).start);
};

describe('the address throttle', () => {
  it('refuses failures past the limit but lets a valid key from the same address through', async () => {
    const guild = await createTestGuild(db());
    const { key, id } = await createTestKey(db(), guild, { clock });
    const member = await addTestMember(db(), guild);
    const get = (authorization: string) => app.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: authorization } });

    for (let i = 0; i < LIMIT; i++) expect((await get(`Bearer ${WELL_FORMED_UNKNOWN}`)).status).toBe(401);
    const throttled = await get(`Bearer ${WELL_FORMED_UNKNOWN}`);
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({ error: 'RATE_LIMITED', message: expect.any(String) });
    expect(throttled.headers['retry-after']).toBe('50');
    const failuresBefore = await failures();

    const ok = await get(`Bearer ${key}`);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe('599');
    expect(await keyHits(id)).toBe(1);

    // A write with the valid key goes through too, and changes what it should.
    const before = await countWrites(db(), guild.id);
    const write = await app.http('POST', `/guilds/${guild.id}/bank/members/${member}/transactions`, {
      headers: bearer(key),
      body: { type: 'add', amount: 3 },
    });
    expect(write.status, write.text).toBe(201);
    expect((await countWrites(db(), guild.id)).ledger).toBeGreaterThan(before.ledger);
    // Successes do not count as failures.
    expect(await failures()).toBe(failuresBefore);

    // The address stays throttled for every kind of failure.
    for (const authorization of [`Bearer ${WELL_FORMED_UNKNOWN}`, 'Bearer not-a-key', 'Basic x']) {
      const res = await get(authorization);
      expect(res.status, authorization).toBe(429);
      expect(res.body.error).toBe('RATE_LIMITED');
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    expect(await keyHits(id)).toBe(2);
  });

  it('still refuses a revoked key from a throttled address with 429 (it is a failure)', async () => {
    clock.set(new Date('2026-11-22T12:05:10Z'));
    try {
      const guild = await createTestGuild(db());
      const { key, id } = await createTestKey(db(), guild, { clock });
      await revokeApiKey(db(), clock, { guildId: guild.id, id, actor: { type: 'system' } });
      const get = (authorization: string) => app.http('GET', `/guilds/${guild.id}`, { headers: { Authorization: authorization } });
      for (let i = 0; i < LIMIT; i++) expect((await get(`Bearer ${key}`)).body.error).toBe('API_KEY_REVOKED');
      const res = await get(`Bearer ${key}`);
      expect(res.status).toBe(429);
      expect(res.body.error).toBe('RATE_LIMITED');
      expect(await keyHits(id)).toBe(0);
    } finally {
      clock.set(START);
    }
  });
});
