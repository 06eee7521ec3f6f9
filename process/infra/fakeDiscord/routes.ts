import { ChannelType, type APIChannel, type APIGuildMember, type APIMessage } from 'discord-api-types/v10';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { componentRefusal } from './componentRules.js';
import { discordError, type FakeAnswer } from './faults.js';
import { messageBodyRefusal, pingsOf } from './messageLimits.js';
import { earlierByNonce, nonceRefusal, rememberNonce } from './messageNonces.js';
import { botGuildPermissions, channelPermissions } from './permissions.js';
import type { FakeDiscordState, FakeGuild, FakeInvite } from './state.js';

export interface FakeRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown> | null;
  /** Lower-case names. */
  headers: Record<string, string>;
}

export type FakeHandler = (state: FakeDiscordState, req: FakeRequest) => FakeAnswer;

/** A route as Discord's docs write it, `/guilds/{guild.id}/members/{user.id}` spelled `/guilds/:guild/members/:user`. */
export interface FakeRoute {
  method: string;
  pattern: string;
  handler: FakeHandler;
}

const json = (body: unknown, status = 200): FakeAnswer => ({ status, body });
const noContent = (): FakeAnswer => ({ status: 204 });
const unknown = {
  guild: () => discordError(404, 10004, 'Unknown Guild'),
  channel: () => discordError(404, 10003, 'Unknown Channel'),
  member: () => discordError(404, 10007, 'Unknown Member'),
  message: () => discordError(404, 10008, 'Unknown Message'),
  role: () => discordError(404, 10011, 'Unknown Role'),
  user: () => discordError(404, 10013, 'Unknown User'),
  ban: () => discordError(404, 10026, 'Unknown Ban'),
};

const THREAD_TYPES: number[] = [ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread];

function withGuild(handler: (state: FakeDiscordState, guild: FakeGuild, req: FakeRequest) => FakeAnswer): FakeHandler {
  return (state, req) => {
    const guild = state.guilds.get(req.params.guild!);
    return guild ? handler(state, guild, req) : unknown.guild();
  };
}

function findChannel(state: FakeDiscordState, channelId: string): { guild?: FakeGuild; channel: APIChannel } | undefined {
  for (const guild of state.guilds.values()) {
    const channel = guild.channels.get(channelId);
    if (channel) return { guild, channel };
  }
  const dm = [...state.dmChannels.entries()].find(([, id]) => id === channelId);
  return dm ? { channel: { id: channelId, type: ChannelType.DM } as APIChannel } : undefined;
}

function postMessage(state: FakeDiscordState, req: FakeRequest): FakeAnswer {
  const channelId = req.params.channel!;
  const found = findChannel(state, channelId);
  if (!found) return unknown.channel();
  if (found.channel.type === ChannelType.DM) {
    const recipient = [...state.dmChannels.entries()].find(([, id]) => id === channelId)![0];
    if (state.closedDms.has(recipient)) return discordError(403, 50007, 'Cannot send messages to this user');
  }
  // Components first (their own rules), then the content and embed limits and the empty-message check.
  const refused = componentRefusal(req.body) ?? messageBodyRefusal(req.body) ?? nonceRefusal(req.body);
  if (refused) return refused;
  const earlier = earlierByNonce(state, channelId, req.body);
  if (earlier) return json(earlier);
  const message = {
    id: state.nextId(),
    channel_id: channelId,
    author: state.bot,
    content: String(req.body?.content ?? ''),
    timestamp: new Date(state.now()).toISOString(),
    edited_timestamp: null,
    nonce: req.body?.nonce ?? undefined,
    ...messageParts(state, found, req.body, { content: '', embeds: [], components: [] }),
  } as APIMessage;
  state.messages.set(message.id, message);
  rememberNonce(state, message);
  return json(message);
}

/**
 * What a post or an edit sets beside the content: embeds (dropped, as Discord does, where the bot lacks Embed Links),
 * components, and who the content pings. An edit keeps the embeds and components it does not send.
 */
function messageParts(
  state: FakeDiscordState,
  where: { guild?: FakeGuild; channel: APIChannel },
  body: Record<string, unknown> | null,
  before: { content: string; embeds: unknown[]; components?: unknown[] },
) {
  const { guild, channel } = where;
  const held = guild ? channelPermissions(state, guild, channel) : PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.MentionEveryone;
  const embeds = Array.isArray(body?.embeds) ? body.embeds : before.embeds;
  const content = String(body?.content ?? before.content);
  const pings = pingsOf(content, body?.allowed_mentions as never, {
    mentionable: (roleId) => guild?.roles.get(roleId)?.mentionable === true,
    botMayMentionEveryone: (held & PermissionFlagsBits.MentionEveryone) !== 0n,
  });
  return {
    embeds: (held & PermissionFlagsBits.EmbedLinks) !== 0n ? embeds : [],
    components: Array.isArray(body?.components) ? body.components : (before.components ?? []),
    mentions: pings.userIds.map((id) => state.users.get(id) ?? { id }),
    mention_roles: pings.roleIds,
    mention_everyone: pings.everyone,
  };
}

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

function member(guild: FakeGuild, req: FakeRequest): APIGuildMember | undefined {
  return guild.members.get(req.params.user!);
}

/** The REST v10 endpoints the adapter uses; a later fake (gateway, OAuth2) adds its own with `FakeDiscord.route`. */
export const DISCORD_ROUTES: FakeRoute[] = [
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
    handler: withGuild((_, g, req) => {
      const m = member(g, req);
      if (!m) return unknown.member();
      if (!g.roles.has(req.params.role!)) return unknown.role();
      if (!m.roles.includes(req.params.role!)) m.roles.push(req.params.role!);
      return noContent();
    }),
  },
  {
    method: 'DELETE',
    pattern: '/guilds/:guild/members/:user/roles/:role',
    handler: withGuild((_, g, req) => {
      const m = member(g, req);
      if (!m) return unknown.member();
      if (!g.roles.has(req.params.role!)) return unknown.role();
      m.roles = m.roles.filter((r) => r !== req.params.role);
      return noContent();
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
  { method: 'POST', pattern: '/channels/:channel/messages', handler: postMessage },
  {
    method: 'PATCH',
    pattern: '/channels/:channel/messages/:message',
    handler: (state, req) => {
      const message = state.messages.get(req.params.message!);
      if (!message || message.channel_id !== req.params.channel) return unknown.message();
      // Only the bot's own messages are edited, so only they ever carry its buttons (Discord shows components only there).
      if (message.author.id !== state.bot.id) return discordError(403, 50005, 'Cannot edit a message authored by another user');
      const refused = componentRefusal(req.body) ?? messageBodyRefusal(req.body, message);
      if (refused) return refused;
      message.content = String(req.body?.content ?? message.content);
      Object.assign(message, messageParts(state, findChannel(state, message.channel_id)!, req.body, message));
      message.edited_timestamp = new Date().toISOString();
      return json(message);
    },
  },
  {
    method: 'POST',
    pattern: '/users/@me/channels',
    handler: (state, req) => {
      const recipient = String(req.body?.recipient_id ?? '');
      const user = state.users.get(recipient);
      if (!user) return unknown.user();
      let id = state.dmChannels.get(recipient);
      if (!id) state.dmChannels.set(recipient, (id = state.nextId()));
      return json({ id, type: ChannelType.DM, recipients: [user] });
    },
  },
  {
    method: 'POST',
    pattern: '/channels/:channel/invites',
    handler: (state, req) => {
      const found = findChannel(state, req.params.channel!);
      if (!found?.guild) return unknown.channel();
      const code = Buffer.from(state.nextId()).toString('base64url').slice(-10);
      const maxUses = Number(req.body?.max_uses ?? 0);
      state.invites.set(code, { code, channelId: found.channel.id, guildId: found.guild.id, maxUses, uses: 0, inviterId: state.bot.id });
      return json({ code, max_uses: maxUses, channel: { id: found.channel.id }, guild: { id: found.guild.id } });
    },
  },
  {
    method: 'GET',
    pattern: '/guilds/:guild/invites',
    handler: withGuild((state, g) => {
      const withMetadata = ((botGuildPermissions(state, g) ?? 0n) & PermissionFlagsBits.ManageGuild) !== 0n;
      return json([...state.invites.values()].filter((i) => i.guildId === g.id).map((i) => inviteOf(state, g, i, withMetadata)));
    }),
  },
  {
    method: 'GET',
    pattern: '/channels/:channel',
    handler: (state, req) => {
      const found = findChannel(state, req.params.channel!);
      return found ? json(found.channel) : unknown.channel();
    },
  },
  {
    method: 'PATCH',
    pattern: '/channels/:channel',
    handler: (state, req) => {
      const found = findChannel(state, req.params.channel!);
      if (!found?.guild) return unknown.channel();
      const thread = found.channel as APIChannel & { thread_metadata?: Record<string, unknown> };
      if (THREAD_TYPES.includes(thread.type)) {
        const meta: Record<string, unknown> = { ...thread.thread_metadata };
        if (req.body && 'archived' in req.body) meta.archived = req.body.archived;
        if (req.body && 'locked' in req.body) meta.locked = req.body.locked;
        thread.thread_metadata = meta;
      }
      if (typeof req.body?.name === 'string') (found.channel as { name: string }).name = req.body.name;
      return json(found.channel);
    },
  },
  {
    method: 'DELETE',
    pattern: '/channels/:channel',
    handler: (state, req) => {
      const found = findChannel(state, req.params.channel!);
      if (!found?.guild) return unknown.channel();
      found.guild.channels.delete(found.channel.id);
      return json(found.channel);
    },
  },
];
