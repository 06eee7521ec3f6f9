import type { APIGuildMember } from 'discord-api-types/v10';
import { json, noContent, unknown, withGuild, type FakeRequest, type FakeRoute } from './fakeRoute.js';
import type { FakeGuild } from './state.js';

function member(guild: FakeGuild, req: FakeRequest): APIGuildMember | undefined {
  return guild.members.get(req.params.user!);
}

/** A member's role given or taken: the member and the role must exist (Unknown Member answered first). */
function roleChange(change: (m: APIGuildMember, roleId: string) => void) {
  return withGuild((_, g, req) => {
    const m = member(g, req);
    if (!m) return unknown.member();
    const roleId = req.params.role!;
    if (!g.roles.has(roleId)) return unknown.role();
    change(m, roleId);
    return noContent();
  });
}

/** A server's members: one read, timed out or kicked, given or stripped of a role; its bans. */
export const MEMBER_ROUTES: FakeRoute[] = [
  { method: 'GET', pattern: '/guilds/:guild/members/:user', handler: withGuild((_, g, req) => { const m = member(g, req); return m ? json(m) : unknown.member(); }) },
  {
    method: 'PATCH',
    pattern: '/guilds/:guild/members/:user',
    handler: withGuild((_, g, req) => {
      const m = member(g, req);
      if (!m) return unknown.member();
      if (req.body && 'communication_disabled_until' in req.body) m.communication_disabled_until = (req.body.communication_disabled_until as string | null) ?? null;
      return json(m);
    }),
  },
  {
    method: 'DELETE',
    pattern: '/guilds/:guild/members/:user',
    handler: withGuild((_, g, req) => (g.members.delete(req.params.user!) ? noContent() : unknown.member())),
  },
  {
    method: 'PUT',
    pattern: '/guilds/:guild/members/:user/roles/:role',
    handler: roleChange((m, roleId) => {
      if (!m.roles.includes(roleId)) m.roles.push(roleId);
    }),
  },
  {
    method: 'DELETE',
    pattern: '/guilds/:guild/members/:user/roles/:role',
    handler: roleChange((m, roleId) => {
      m.roles = m.roles.filter((r) => r !== roleId);
    }),
  },
  { method: 'GET', pattern: '/guilds/:guild/bans/:user', handler: withGuild((_, g, req) => (g.bans.has(req.params.user!) ? json(g.bans.get(req.params.user!)) : unknown.ban())) },
  {
    method: 'PUT',
    pattern: '/guilds/:guild/bans/:user',
    handler: withGuild((state, g, req) => {
      const userId = req.params.user!;
      const user = state.users.get(userId);
      if (!user) return unknown.user();
      g.members.delete(userId);
      // Discord keeps the audit log reason as the ban's reason.
      const reason = req.headers['x-audit-log-reason'];
      g.bans.set(userId, { user, reason: reason === undefined ? null : decodeURIComponent(reason) });
      return noContent();
    }),
  },
  {
    method: 'DELETE',
    pattern: '/guilds/:guild/bans/:user',
    handler: withGuild((_, g, req) => (g.bans.delete(req.params.user!) ? noContent() : unknown.ban())),
  },
];
