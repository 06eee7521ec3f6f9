import { ChannelType, PermissionFlagsBits, type APIChannel } from 'discord-api-types/v10';
import { discordError, type FakeAnswer } from './faults.js';
import { THREAD_TYPES, json, withGuild, type FakeRequest, type FakeRoute } from './fakeRoute.js';
import { botGuildPermissions } from './permissions.js';
import type { FakeDiscordState, FakeGuild, FakeInvite } from './state.js';

/** A guild channel as Discord creates it, with the permission overwrites it was given (kept as sent). */
function createChannel(state: FakeDiscordState, guild: FakeGuild, req: FakeRequest): FakeAnswer {
  const name = req.body?.name;
  if (typeof name !== 'string' || name.length === 0 || name.length > 100) return discordError(400, 50035, 'Invalid Form Body');
  const parentId = (req.body?.parent_id as string | undefined) ?? null;
  if (parentId !== null && guild.channels.get(parentId)?.type !== ChannelType.GuildCategory) return discordError(400, 50035, 'Invalid Form Body');
  const channel = {
    id: state.nextId(),
    guild_id: guild.id,
    type: Number(req.body?.type ?? ChannelType.GuildText),
    name,
    parent_id: parentId,
    position: guild.channels.size,
    permission_overwrites: (req.body?.permission_overwrites as unknown[] | undefined) ?? [],
  } as unknown as APIChannel;
  guild.channels.set(channel.id, channel);
  return json(channel);
}

/**
 * An invite as `GET /guilds/{guild.id}/invites` shows it: with its metadata (use count, limits) when the bot holds
 * Manage Server, without when it holds only View Audit Log (https://docs.discord.com/developers/resources/guild#get-guild-invites).
 */
function inviteOf(state: FakeDiscordState, g: FakeGuild, i: FakeInvite, withMetadata: boolean) {
  const inviter = i.inviterId === null ? undefined : state.users.get(i.inviterId);
  const invite = {
    type: 0,
    code: i.code,
    guild: { id: g.id, name: g.name, icon: g.icon },
    channel: { id: i.channelId, type: ChannelType.GuildText, name: (g.channels.get(i.channelId) as { name?: string } | undefined)?.name ?? '' },
    ...(inviter ? { inviter } : {}),
    expires_at: null,
  };
  return withMetadata ? { ...invite, uses: i.uses, max_uses: i.maxUses, max_age: 0, temporary: false, created_at: '2026-01-01T00:00:00.000Z' } : invite;
}

/** The bot user, and a server as the adapter reads it: the server, its roles, channels, active threads and invites; a channel created. */
export const GUILD_ROUTES: FakeRoute[] = [
  { method: 'GET', pattern: '/users/@me', handler: (state) => json(state.bot) },
  {
    method: 'GET',
    pattern: '/guilds/:guild',
    handler: withGuild((_, g, req) =>
      json({
        id: g.id,
        name: g.name,
        icon: g.icon,
        owner_id: g.ownerId,
        roles: [...g.roles.values()],
        ...(req.query.get('with_counts') === 'true' ? { approximate_member_count: g.members.size, approximate_presence_count: 0 } : {}),
      }),
    ),
  },
  { method: 'POST', pattern: '/guilds/:guild/channels', handler: withGuild(createChannel) },
  { method: 'GET', pattern: '/guilds/:guild/roles', handler: withGuild((_, g) => json([...g.roles.values()])) },
  {
    method: 'GET',
    pattern: '/guilds/:guild/channels',
    handler: withGuild((_, g) => json([...g.channels.values()].filter((c) => !THREAD_TYPES.includes(c.type)))),
  },
  {
    method: 'GET',
    pattern: '/guilds/:guild/threads/active',
    handler: withGuild((_, g) =>
      json({ threads: [...g.channels.values()].filter((c) => THREAD_TYPES.includes(c.type) && !(c as { thread_metadata?: { archived?: boolean } }).thread_metadata?.archived), members: [] }),
    ),
  },
  {
    method: 'GET',
    pattern: '/guilds/:guild/invites',
    handler: withGuild((state, g) => {
      const withMetadata = ((botGuildPermissions(state, g) ?? 0n) & PermissionFlagsBits.ManageGuild) !== 0n;
      return json([...state.invites.values()].filter((i) => i.guildId === g.id).map((i) => inviteOf(state, g, i, withMetadata)));
    }),
  },
];
