import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, createTestGuild, createTestKey, type TestGuild } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

// Bad input of any kind answers 4xx in the error shape and changes nothing: no ledger row, no audit row,
// no event, no stored Idempotency-Key response.
const { database, app } = useApiTestBed();

interface Case {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

const G = '{guild}';
const M = '{member}';
const TX = `/guilds/${G}/bank/members/${M}/transactions`;

async function expectRefusedWithoutChange(guild: TestGuild, key: string, member: string, c: Case) {
  const before = await countWrites(database.db, guild.id);
  const path = (c.path ?? TX).replaceAll(G, guild.id).replaceAll(M, member);
  const res = await app.http(c.method ?? 'POST', path, { headers: { Authorization: `Bearer ${key}`, ...c.headers }, body: c.body });
  expect(res.status, res.text).toBeGreaterThanOrEqual(400);
  expect(res.status, res.text).toBeLessThan(500);
  if (c.method !== 'HEAD') expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String), message: expect.any(String) }));
  expect(await countWrites(database.db, guild.id)).toEqual(before);
}

async function setup() {
  const guild = await createTestGuild(database.db);
  const { key } = await createTestKey(database.db, guild);
  const member = await addTestMember(database.db, guild);
  return { guild, key, member };
}

describe('bad input never answers 500 and never changes state', () => {
  it.each<[string, Case]>([
    // paths
    ['a bad percent escape', { method: 'GET', path: '/guilds/%zz' }],
    ['an encoded NUL in the guild id', { method: 'GET', path: '/guilds/%00' }],
    ['an encoded NUL in the user id', { method: 'GET', path: `/guilds/${G}/members/1%0000000000000000000` }],
    ['SQL in the path', { method: 'GET', path: `/guilds/${G}/members/1;DROP TABLE guilds` }],
    ['a 400-digit id', { method: 'GET', path: `/guilds/${G}/members/${'9'.repeat(400)}` }],
    ['a 21-digit user id', { method: 'POST', path: `/guilds/${G}/bank/members/${'9'.repeat(21)}/transactions`, body: '{"type":"add","amount":1}' }],
    ['dot segments', { method: 'GET', path: `/guilds/${G}/members/../../openapi.json/../x` }],
    ['a unicode path', { method: 'GET', path: `/guilds/${G}/members/%F0%9F%98%80` }],
    // query strings
    ['a repeated query parameter', { method: 'GET', path: `/guilds/${G}/bank/leaderboard?limit=1&limit=2` }],
    ['a query bracket object', { method: 'GET', path: `/guilds/${G}/bank/leaderboard?limit[a]=1&limit=x` }],
    ['a NUL in the query', { method: 'GET', path: `/guilds/${G}/bank/members/${M}/transactions?before=%00` }],
    ['a huge number in the query', { method: 'GET', path: `/guilds/${G}/bank/members/${M}/transactions?before=1e400` }],
    // headers
    ['a NUL-free but binary Authorization', { headers: { Authorization: 'Bearer \u00ff\u00fe' }, body: '{"type":"add","amount":1}' }],
    ['a 4 KiB Authorization', { headers: { Authorization: `Bearer svc_${'A'.repeat(4096)}` }, body: '{"type":"add","amount":1}' }],
    ['an Idempotency-Key with control characters', { headers: { 'Idempotency-Key': 'a\tb' }, body: '{"type":"add","amount":1}' }],
    ['a 101-character Idempotency-Key', { headers: { 'Idempotency-Key': 'k'.repeat(101) }, body: '{"type":"add","amount":1}' }],
    ['a non-ASCII Idempotency-Key', { headers: { 'Idempotency-Key': 'clé' }, body: '{"type":"add","amount":1}' }],
    ['a Latin-1 charset', { headers: { 'Content-Type': 'application/json; charset=latin1' }, body: '{"type":"add","amount":1}' }],
    ['a JSON-like Content-Type', { headers: { 'Content-Type': 'application/json-patch+json' }, body: '{"type":"add","amount":1}' }],
    ['a multipart Content-Type', { headers: { 'Content-Type': 'multipart/form-data; boundary=x' }, body: '--x--' }],
    // bodies
    ['control bytes', { body: '\u0000\u0001' }],
    ['binary garbage', { body: Buffer.from([0xff, 0xfe, 0x00, 0x7b]) }],
    ['JSON null', { body: 'null' }],
    ['a JSON string', { body: '"add"' }],
    ['an infinite amount', { body: '{"type":"add","amount":1e400}' }],
    ['a fractional amount', { body: '{"type":"add","amount":1.5}' }],
    ['a negative amount', { body: '{"type":"add","amount":-5}' }],
    ['an amount past the spec bound', { body: '{"type":"add","amount":1000000000001}' }],
    ['an unsafe integer amount', { body: '{"type":"add","amount":9007199254740993}' }],
    ['an amount as a string', { body: '{"type":"add","amount":"5"}' }],
    ['an unknown type', { body: '{"type":"set","amount":5}' }],
    ['a __proto__ key', { body: '{"__proto__":{"isAdmin":true},"type":"add","amount":1}' }],
    ['a constructor key', { body: '{"constructor":{"prototype":{"x":1}},"type":"add","amount":1}' }],
    ['a NUL in reason', { body: '{"type":"add","amount":1,"reason":"a\\u0000b"}' }],
    ['an unpaired surrogate in reason', { body: '{"type":"add","amount":1,"reason":"\\udc00"}' }],
    ['a 201-character reason', { body: JSON.stringify({ type: 'add', amount: 1, reason: 'r'.repeat(201) }) }],
    ['a deeply nested body', { body: '['.repeat(20_000) + ']'.repeat(20_000) }],
    ['a body over 64 KiB', { body: JSON.stringify({ type: 'add', amount: 1, reason: 'r'.repeat(70_000) }) }],
    ['a body on a GET of a bad path', { method: 'GET', path: `/guilds/${G}/members/x`, body: '{{{' }],
    ['duplicate keys', { body: '{"type":"add","amount":1,"amount":"x"}' }],
    ['a NUL in an XP change reason', { path: `/guilds/${G}/levels/members/${M}/xp-changes`, body: '{"type":"add","amount":1,"reason":"\\u0000"}' }],
  ])('%s', async (_label, c) => {
    const { guild, key, member } = await setup();
    await expectRefusedWithoutChange(guild, key, member, c);
  });

  it.each<[string, Case]>([
    ['an unknown query parameter', { method: 'GET', path: `/guilds/${G}/bank/leaderboard?limit[a]=1&unknown=%00` }],
    ['a body on a GET', { method: 'GET', path: `/guilds/${G}`, body: '{{{' }],
  ])('%s is ignored', async (_label, c) => {
    const { guild, key, member } = await setup();
    const path = c.path!.replaceAll(G, guild.id).replaceAll(M, member);
    const res = await app.http(c.method!, path, { headers: { Authorization: `Bearer ${key}` }, body: c.body });
    expect(res.status).toBe(200);
  });

  it('random mutations of a valid bank write never answer 500, and a refused one changes nothing', async () => {
    const { guild, key, member } = await setup();
    const valid = '{"type":"add","amount":25,"reason":"quest reward"}';
    const alphabet = ['"', '{', '}', '[', ']', ':', ',', '\\', '\\u0000', '\\ud800', '-', '1e9', 'null', ' ', '\u00e9', '0'];
    let seed = 20261122;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (let round = 0; round < 60; round++) {
      let text = valid;
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(text.length + 1);
        const cut = random(3);
        text = text.slice(0, at) + alphabet[random(alphabet.length)] + text.slice(at + cut);
      }
      const before = await countWrites(database.db, guild.id);
      const res = await app.http('POST', `/guilds/${guild.id}/bank/members/${member}/transactions`, {
        headers: { Authorization: `Bearer ${key}` },
        body: text,
      });
      expect(res.status, `${text} → ${res.text}`).toBeLessThan(500);
      if (res.status >= 400) expect(await countWrites(database.db, guild.id), text).toEqual(before);
    }
  });
});
