import type { APIGuildMember } from 'discord-api-types/v10';
import { discordError, type FakeAnswer } from './faults.js';
import type { FakeRoute } from './fakeRoute.js';

/** Discord's 50035 with the `errors` entry of the one query field it refuses. */
const formError = (field: string, code: string, message: string): FakeAnswer => ({
  status: 400,
  body: { message: 'Invalid Form Body', code: 50035, errors: { [field]: { _errors: [{ code, message }] } } },
});

/** `limit` 1 to 1,000, 1 when absent (both member routes); a refusal otherwise. */
function limitOf(query: URLSearchParams): number | FakeAnswer {
  const limit = Number(query.get('limit') ?? '1');
  if (!Number.isInteger(limit)) return formError('limit', 'NUMBER_TYPE_COERCE', `Value "${query.get('limit')}" is not int.`);
  if (limit < 1) return formError('limit', 'NUMBER_TYPE_MIN', 'int value should be greater than or equal to 1.');
  if (limit > 1000) return formError('limit', 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 1000.');
  return limit;
}

/** The start of the username or the nickname, either case (https://discord.com/developers/docs/resources/guild#search-guild-members). */
const startsWith = (m: APIGuildMember, query: string) => [m.user.username, m.nick ?? ''].some((name) => name.toLowerCase().startsWith(query));

/**
 * `GET /guilds/{guild.id}/members/search` (registered before `/members/{user.id}`, which would take `search` for a
 * user id): `query` required, `limit` 1 to 1,000 (default 1). Then `GET /guilds/{guild.id}/members`: a page of members in user id order (as snowflakes sort), `limit` 1 to 1,000
 * (default 1), after the user id `after`, as Discord answers it.
 */
export const MEMBER_LIST_ROUTES: FakeRoute[] = [
  {
    method: 'GET',
    pattern: '/guilds/:guild/members/search',
    handler: (state, req) => {
      const guild = state.guilds.get(req.params.guild!);
      if (!guild) return discordError(404, 10004, 'Unknown Guild');
      const query = req.query.get('query');
      if (query === null) return formError('query', 'BASE_TYPE_REQUIRED', 'This field is required');
      const limit = limitOf(req.query);
      if (typeof limit !== 'number') return limit;
      const lower = query.toLowerCase();
      return { status: 200, body: [...guild.members.values()].filter((m) => startsWith(m, lower)).slice(0, limit) };
    },
  },
  {
    method: 'GET',
    pattern: '/guilds/:guild/members',
    handler: (state, req) => {
      const guild = state.guilds.get(req.params.guild!);
      if (!guild) return discordError(404, 10004, 'Unknown Guild');
      const limit = limitOf(req.query);
      if (typeof limit !== 'number') return limit;
      const after = BigInt(req.query.get('after') ?? '0');
      const page = [...guild.members.values()]
        .filter((m) => BigInt(m.user.id) > after)
        .sort((a, b) => (BigInt(a.user.id) < BigInt(b.user.id) ? -1 : 1))
        .slice(0, limit);
      return { status: 200, body: page };
    },
  },
];
