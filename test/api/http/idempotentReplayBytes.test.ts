import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

// Spec rule 1 of Idempotency-Key: a replay returns the original status and body. "The body" is the bytes that
// were sent, not an equivalent JSON value: a client that hashes or signs what it received sees the same thing.
const { db, app } = useApiTestBed();

describe('an idempotent replay', () => {
  it('returns the first response byte for byte, with the same content type', async () => {
    const guild = await createTestGuild(db());
    const { key } = await createTestKey(db(), guild, { scopes: ['bank:write'] });
    const userId = await addTestMember(db(), guild);
    const post = () =>
      app.http('POST', `/guilds/${guild.id}/bank/members/${userId}/transactions`, {
        headers: { ...bearer(key), 'Idempotency-Key': 'bytes-1' },
        body: { type: 'add', amount: 42, reason: 'naïve café ✓ 😀' },
      });

    const first = await post();
    expect(first.status).toBe(201);
    const after = await countWrites(db(), guild.id);
    const replay = await post();
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(replay.headers['content-type']).toBe(first.headers['content-type']);
    expect(replay.headers['content-length']).toBe(first.headers['content-length']);
    expect(await countWrites(db(), guild.id)).toEqual(after);
  });

  it('stores the response as the exact text that was sent', async () => {
    const guild = await createTestGuild(db());
    const { key, id } = await createTestKey(db(), guild, { scopes: ['bank:write'] });
    const userId = await addTestMember(db(), guild);
    const first = await app.http('POST', `/guilds/${guild.id}/bank/members/${userId}/transactions`, {
      headers: { ...bearer(key), 'Idempotency-Key': 'bytes-2' },
      body: { type: 'add', amount: 1 },
    });
    expect(first.status).toBe(201);
    const record = await db()
      .selectFrom('idempotency_records')
      .select(['response_status', 'response_body'])
      .where('api_key_id', '=', id)
      .where('idempotency_key', '=', 'bytes-2')
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ response_status: 201, response_body: first.text });
  });
});
