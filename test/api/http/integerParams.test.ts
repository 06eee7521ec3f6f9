import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, type TestGuild } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

// Integers in query strings and paths are written in decimal digits and given once: `1e1`, ` 5`, `0x10`, `5.0`
// are not integers to a client's URL builder either. The refusal says what is wrong with the value.
const { db, app } = useApiTestBed();

const DIGITS = 'must be an integer written in decimal digits';
const ONCE = 'must be given once';
const range = (min: number, max: number) => `must be an integer from ${min} to ${max}`;

interface Param {
  /** The endpoint, with {guild} and {member} standing for the test's ids. */
  path: string;
  name: string;
  min: number;
  max: number;
  default?: number;
}

const QUERY_PARAMS: Param[] = [
  { path: '/guilds/{guild}/bank/members/{member}/transactions', name: 'limit', min: 1, max: 100, default: 25 },
  { path: '/guilds/{guild}/bank/members/{member}/transactions', name: 'before', min: 1, max: Number.MAX_SAFE_INTEGER },
  { path: '/guilds/{guild}/bank/leaderboard', name: 'limit', min: 1, max: 100, default: 10 },
  { path: '/guilds/{guild}/levels/leaderboard', name: 'limit', min: 1, max: 100, default: 25 },
  { path: '/guilds/{guild}/levels/leaderboard', name: 'cursor', min: 0, max: 10_000_000, default: 0 },
  { path: '/guilds/{guild}/moderation/cases', name: 'limit', min: 1, max: 100, default: 25 },
  { path: '/guilds/{guild}/moderation/cases', name: 'before', min: 1, max: 999_999_999 },
  { path: '/guilds/{guild}/appeals', name: 'limit', min: 1, max: 100, default: 25 },
  { path: '/guilds/{guild}/appeals', name: 'before', min: 1, max: 999_999_999 },
];

const PATH_PARAMS: Array<{ method: 'get' | 'post'; path: string }> = [
  { method: 'get', path: '/guilds/{guildId}/moderation/cases/{number}' },
  { method: 'get', path: '/guilds/{guildId}/appeals/{number}' },
  { method: 'post', path: '/guilds/{guildId}/appeals/{number}/approve' },
  { method: 'post', path: '/guilds/{guildId}/appeals/{number}/reject' },
];

async function setup() {
  const guild = await createTestGuild(db());
  const { key } = await createTestKey(db(), guild);
  const member = await addTestMember(db(), guild);
  const url = (p: Param, query: string) => `${p.path.replace('{guild}', guild.id).replace('{member}', member)}?${query}`;
  return { guild, key, url };
}

async function expectQueryIssue(guild: TestGuild, key: string, url: string, name: string, message: string) {
  const before = await countWrites(db(), guild.id);
  const res = await app.http('GET', url, { headers: bearer(key) });
  expect(res.status, `${url} ${res.text}`).toBe(400);
  expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: [{ location: 'query', path: name, message }] });
  expect(await countWrites(db(), guild.id)).toEqual(before);
}

const label = (p: Param) => `${p.name} of ${p.path.replace('/guilds/{guild}', '')}`;

describe('integer query parameters', () => {
  it.each(QUERY_PARAMS.map((p) => [label(p), p] as const))('%s: only decimal digits', async (_label, p) => {
    const { guild, key, url } = await setup();
    for (const written of ['1e1', '%205', '5%20', '+5', '-1', '5.0', '0x10', '1_0', '%EF%BC%95', '']) {
      await expectQueryIssue(guild, key, url(p, `${p.name}=${written}`), p.name, DIGITS);
    }
  });

  it.each(QUERY_PARAMS.map((p) => [label(p), p] as const))('%s: given once', async (_label, p) => {
    const { guild, key, url } = await setup();
    await expectQueryIssue(guild, key, url(p, `${p.name}=5&${p.name}=6`), p.name, ONCE);
    await expectQueryIssue(guild, key, url(p, `${p.name}=5&${p.name}=5`), p.name, ONCE);
  });

  it.each(QUERY_PARAMS.map((p) => [label(p), p] as const))('%s: inside its bounds', async (_label, p) => {
    const { guild, key, url } = await setup();
    await expectQueryIssue(guild, key, url(p, `${p.name}=${p.min - 1 < 0 ? '' : p.min - 1}`), p.name, p.min === 0 ? DIGITS : range(p.min, p.max));
    await expectQueryIssue(guild, key, url(p, `${p.name}=${BigInt(p.max) + 1n}`), p.name, range(p.min, p.max));
    await expectQueryIssue(guild, key, url(p, `${p.name}=${'9'.repeat(400)}`), p.name, range(p.min, p.max));
  });

  it.each(QUERY_PARAMS.map((p) => [label(p), p] as const))('%s: digits within bounds are accepted', async (_label, p) => {
    const { key, url } = await setup();
    for (const written of [String(p.min), `0${p.min + 1}`, String(Math.min(p.max, 100))]) {
      const res = await app.http('GET', url(p, `${p.name}=${written}`), { headers: bearer(key) });
      expect(res.status, `${p.name}=${written} ${res.text}`).toBe(200);
    }
  });

  it('a request with several bad integers reports each of them', async () => {
    const { guild, key } = await setup();
    const res = await app.http('GET', `/guilds/${guild.id}/moderation/cases?limit=1e1&before=2&before=3`, { headers: bearer(key) });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { location: 'query', path: 'limit', message: DIGITS },
      { location: 'query', path: 'before', message: ONCE },
    ]);
  });
});

describe('integer path parameters', () => {
  it.each(PATH_PARAMS.map((p) => [`${p.method.toUpperCase()} ${p.path}`, p] as const))('%s: only decimal digits, within bounds', async (_label, p) => {
    const { guild, key } = await setup();
    for (const [written, message] of [
      ['1e3', DIGITS],
      ['%201', DIGITS],
      ['0x1', DIGITS],
      ['1.0', DIGITS],
      ['-1', DIGITS],
      ['0', range(1, 999_999_999)],
      ['1000000000', range(1, 999_999_999)],
    ] as const) {
      const before = await countWrites(db(), guild.id);
      const path = p.path.replace('{guildId}', guild.id).replace('{number}', written);
      const res = await app.http(p.method.toUpperCase(), path, { headers: bearer(key), body: p.method === 'post' ? {} : undefined });
      expect(res.status, `${path} ${res.text}`).toBe(400);
      expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: [{ location: 'path', path: 'number', message }] });
      expect(await countWrites(db(), guild.id)).toEqual(before);
    }
  });

  it('digits with a leading zero name the same record', async () => {
    const { guild, key } = await setup();
    const res = await app.http('GET', `/guilds/${guild.id}/moderation/cases/007`, { headers: bearer(key) });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('CASE_NOT_FOUND');
  });
});

describe('the OpenAPI document', () => {
  type Parameter = { name: string; in: string; required: boolean; schema: Record<string, unknown> };
  const parametersOf = async (method: string, path: string) => {
    const doc = (await app.http('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { parameters: Parameter[] }>> };
    // Paths are relative to the server URL (…/api/v1), or carry the prefix themselves.
    return (doc.paths[path] ?? doc.paths[`/api/v1${path}`])![method]!.parameters;
  };

  it.each(QUERY_PARAMS.map((p) => [label(p), p] as const))('types %s as an integer with its bounds and default', async (_label, p) => {
    const path = p.path.replace('{guild}', '{guildId}').replace('{member}', '{userId}');
    const param = (await parametersOf('get', path)).find((x) => x.name === p.name && x.in === 'query');
    expect(param).toMatchObject({ required: false });
    expect(param!.schema).toMatchObject({ type: 'integer', minimum: p.min, maximum: p.max });
    expect(param!.schema.default).toBe(p.default);
    expect(param!.schema.pattern).toBeUndefined();
  });

  it.each(PATH_PARAMS.map((p) => [`${p.method.toUpperCase()} ${p.path}`, p] as const))('types {number} of %s as an integer 1 to 999,999,999', async (_label, p) => {
    const param = (await parametersOf(p.method, p.path)).find((x) => x.name === 'number');
    expect(param).toMatchObject({ in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 999_999_999 } });
  });
});
