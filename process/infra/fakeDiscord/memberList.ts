import { discordError } from './faults.js';
import type { FakeRoute } from './fakeRoute.js';

/**
 * `GET /guilds/{guild.id}/members`: a page of members in user id order (as snowflakes sort), `limit` 1 to 1,000
 * (default 1), after the user id `after`, as Discord answers it.
 */
export const MEMBER_LIST_ROUTES: FakeRoute[] = [
  {
    method: 'GET',
    pattern: '/guilds/:guild/members',
    handler: (state, req) => {
      const guild = state.guilds.get(req.params.guild!);
      if (!guild) return discordError(404, 10004, 'Unknown Guild');
      const limit = Number(req.query.get('limit') ?? '1');
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return discordError(400, 50035, 'Invalid Form Body');
      const after = BigInt(req.query.get('after') ?? '0');
      const page = [...guild.members.values()]
        .filter((m) => BigInt(m.user.id) > after)
        .sort((a, b) => (BigInt(a.user.id) < BigInt(b.user.id) ? -1 : 1))
        .slice(0, limit);
      return { status: 200, body: page };
    },
  },
];
