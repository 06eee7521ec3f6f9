import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_INVITE_PERMISSIONS, addGuild, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

// The fake's GET /guilds/{guild.id}/members/search as Discord's docs write it: `query` required (the start of a
// username or nickname), `limit` 1 to 1,000 (default 1), refused 50035 with the field in `errors`; an unknown server
// 10004, one without the bot 50001; through the same rate limits as every route.

let fake: FakeDiscord;
let limited: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
  limited = await startFakeDiscord({ rateLimits: { route: { limit: 2, windowMs: 60_000 } } });
});
afterAll(async () => {
  await fake.close();
  await limited.close();
});

function server(on: FakeDiscord, withBot = true) {
  const guildId = snowflake();
  const [alice, alfred, bob] = [snowflake(), snowflake(), snowflake()];
  const botRole = snowflake();
  addGuild(on.state, {
    id: guildId,
    name: 'Search',
    ownerId: snowflake(),
    roles: [{ id: botRole, name: 'Bot', position: 3, managed: true, permissions: BOT_INVITE_PERMISSIONS }],
    channels: [],
    members: [
      ...(withBot ? [{ id: on.state.bot.id, username: 'bot', bot: true, roles: [botRole] }] : []),
      { id: alice, username: 'alice' },
      { id: alfred, username: 'fred', nick: 'Alfie' },
      { id: bob, username: 'bob', globalName: 'Alan' },
    ],
  });
  const search = (query: string, on_ = on) =>
    fetch(`${on_.apiUrl}/v10/guilds/${guildId}/members/search${query}`, { headers: { Authorization: `Bot ${on_.token}` } }).then(async (r) => ({
      status: r.status,
      headers: r.headers,
      body: (await r.json()) as unknown,
    }));
  return { guildId, alice, alfred, bob, search };
}

const ids = (body: unknown) => (body as Array<{ user: { id: string } }>).map((m) => m.user.id).sort();
const formError = (field: string, code: string, message: string) => ({ message: 'Invalid Form Body', code: 50035, errors: { [field]: { _errors: [{ code, message }] } } });

describe('fake Discord: member search', () => {
  it('matches the start of the username or the nickname in either case (not the global name), one by default, up to limit', async () => {
    const { alice, alfred, search } = server(fake);
    expect(ids((await search('?query=AL&limit=10')).body)).toEqual([alice, alfred].sort());
    expect((await search('?query=al')).body).toHaveLength(1);
    expect((await search('?query=al&limit=1000')).body).toHaveLength(2);
    expect((await search('?query=zz&limit=5')).body).toEqual([]);
  });

  it.each([
    ['no query', '?limit=5', formError('query', 'BASE_TYPE_REQUIRED', 'This field is required')],
    ['a limit of 0', '?query=a&limit=0', formError('limit', 'NUMBER_TYPE_MIN', 'int value should be greater than or equal to 1.')],
    ['a limit of 1,001', '?query=a&limit=1001', formError('limit', 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 1000.')],
    ['a limit that is no integer', '?query=a&limit=x', formError('limit', 'NUMBER_TYPE_COERCE', 'Value "x" is not int.')],
  ])('refuses %s 400 with 50035 and the field', async (_, query, body) => {
    const { search } = server(fake);
    expect(await search(query).then((r) => [r.status, r.body])).toEqual([400, body]);
  });

  it('answers 10004 for an unknown server and 50001 for a server without the bot', async () => {
    const unknown = await fetch(`${fake.apiUrl}/v10/guilds/${snowflake()}/members/search?query=a`, { headers: { Authorization: `Bot ${fake.token}` } });
    expect([unknown.status, await unknown.json()]).toEqual([404, { message: 'Unknown Guild', code: 10004 }]);
    const { search } = server(fake, false);
    expect(await search('?query=a').then((r) => [r.status, r.body])).toEqual([403, { message: 'Missing Access', code: 50001 }]);
  });

  it("goes through the route's rate limit: the third search in the window is a 429", async () => {
    const { search } = server(limited);
    const answers = [await search('?query=a'), await search('?query=a'), await search('?query=a')];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('2');
  });
});
