import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

// The spec's error table: an invalid path id is 400 INVALID_REQUEST; GUILD_MISMATCH is for a key of another
// server, which a malformed id cannot name. A well-formed id of another server stays 403 GUILD_MISMATCH.
const { db, app } = useApiTestBed();

const SNOWFLAKE_MESSAGE = 'must be a snowflake id: 17 to 20 decimal digits';

async function setup() {
  const guild = await createTestGuild(db());
  const { key } = await createTestKey(db(), guild);
  const member = await addTestMember(db(), guild);
  return { guild, key, member };
}

const MALFORMED: Array<[string, string]> = [
  ['letters', 'abc'],
  ['16 digits', '1'.repeat(16)],
  ['21 digits', '1'.repeat(21)],
  ['a leading space', '%20100000000000000001'],
  ['an exponent', '1e17'],
  ['a signed number', '-100000000000000001'],
];

describe('a malformed {guildId}', () => {
  it.each(MALFORMED)('with %s answers 400 INVALID_REQUEST at path guildId (GET)', async (_label, guildId) => {
    const { key } = await setup();
    const res = await app.http('GET', `/guilds/${guildId}/roles`, { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'INVALID_REQUEST',
      message: expect.any(String),
      issues: [{ location: 'path', path: 'guildId', message: SNOWFLAKE_MESSAGE }],
    });
    // The key is known, so the answer carries its rate-limit headers like every other 400.
    expect(res.headers['x-ratelimit-limit']).toBe('600');
  });

  it.each(MALFORMED)('with %s answers 400 on a write and changes nothing', async (_label, guildId) => {
    const { guild, key, member } = await setup();
    const before = await countWrites(db(), guild.id);
    const res = await app.http('POST', `/guilds/${guildId}/bank/members/${member}/transactions`, {
      headers: { ...bearer(key), 'Idempotency-Key': 'malformed-guild' },
      body: { type: 'add', amount: 5 },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ location: 'path', path: 'guildId', message: SNOWFLAKE_MESSAGE }]);
    expect(await countWrites(db(), guild.id)).toEqual(before);
  });

  it('is reported alone: the other path ids of a server that cannot be named are not looked at', async () => {
    const { key } = await setup();
    const res = await app.http('GET', '/guilds/abc/members/xyz', { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ location: 'path', path: 'guildId', message: SNOWFLAKE_MESSAGE }]);
  });

  it('without a key still answers 401 UNAUTHORIZED: the key is checked first', async () => {
    const res = await app.http('GET', '/guilds/abc/roles');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'UNAUTHORIZED', message: expect.any(String) });
  });
});

describe('a well-formed {guildId} of another server', () => {
  it.each([
    ['19 digits', () => snowflake()],
    ['17 digits', () => '1'.repeat(17)],
    ['20 digits', () => '9'.repeat(20)],
    ['a leading zero', () => `0${snowflake().slice(1)}`],
  ])('with %s answers 403 GUILD_MISMATCH', async (_label, other) => {
    const { key } = await setup();
    const res = await app.http('GET', `/guilds/${other()}/roles`, { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'GUILD_MISMATCH', message: expect.any(String) });
  });
});
