import { ChannelType, OverwriteType, PermissionFlagsBits as P, type APIChannel, type APIOverwrite } from 'discord-api-types/v10';
import { INVITE_LINK_PERMISSIONS } from '../../../src/core/botPermissions.js';
import { discordError, type FakeAnswer } from './faults.js';
import type { FakeDiscordState, FakeGuild } from './state.js';

// The bot's permissions as Discord computes them (https://docs.discord.com/developers/topics/permissions): the
// owner and Administrator hold all; otherwise the everyone role or'ed with the member's roles, then the channel's
// overwrites (everyone, the roles', the member's). A route the bot may not use answers 50001 Missing Access (not in
// the server, or the channel hidden from it) or 50013 Missing Permissions, as Discord does.

const ALL = (1n << 64n) - 1n;
const THREAD_TYPES: number[] = [ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread];

const missingAccess = () => discordError(403, 50001, 'Missing Access');
const missingPermissions = () => discordError(403, 50013, 'Missing Permissions');

/** Null when the bot is not a member of the server. */
export function botGuildPermissions(state: FakeDiscordState, guild: FakeGuild): bigint | null {
  const member = guild.members.get(state.bot.id);
  if (!member) return null;
  if (guild.ownerId === state.bot.id) return ALL;
  const held = new Set([guild.id, ...member.roles]);
  const bits = [...guild.roles.values()].filter((r) => held.has(r.id)).reduce((all, r) => all | BigInt(r.permissions), 0n);
  return bits & P.Administrator ? ALL : bits;
}

/** The bot's highest role position (0: the everyone role only); the owner outranks everyone. */
function botRank(state: FakeDiscordState, guild: FakeGuild): number {
  if (guild.ownerId === state.bot.id) return Number.MAX_SAFE_INTEGER;
  return memberRank(guild, state.bot.id);
}

function memberRank(guild: FakeGuild, userId: string): number {
  const roles = guild.members.get(userId)?.roles ?? [];
  return Math.max(0, ...roles.map((id) => guild.roles.get(id)?.position ?? 0));
}

export function channelPermissions(state: FakeDiscordState, guild: FakeGuild, channel: APIChannel): bigint {
  const base = botGuildPermissions(state, guild) ?? 0n;
  if (base === ALL) return ALL;
  // A thread takes its parent's overwrites.
  const source = THREAD_TYPES.includes(channel.type) ? (guild.channels.get((channel as { parent_id?: string }).parent_id ?? '') ?? channel) : channel;
  const overwrites = ((source as { permission_overwrites?: APIOverwrite[] }).permission_overwrites ?? []).map((o) => ({ ...o, allow: BigInt(o.allow), deny: BigInt(o.deny) }));
  const roles = new Set(guild.members.get(state.bot.id)?.roles ?? []);
  let bits = base;
  const everyone = overwrites.find((o) => o.id === guild.id);
  if (everyone) bits = (bits & ~everyone.deny) | everyone.allow;
  const ofRoles = overwrites.filter((o) => o.type === OverwriteType.Role && roles.has(o.id));
  bits = (bits & ~ofRoles.reduce((d, o) => d | o.deny, 0n)) | ofRoles.reduce((a, o) => a | o.allow, 0n);
  const mine = overwrites.find((o) => o.type === OverwriteType.Member && o.id === state.bot.id);
  if (mine) bits = (bits & ~mine.deny) | mine.allow;
  return bits;
}

type Check = (state: FakeDiscordState, params: Record<string, string>) => FakeAnswer | undefined;

/** The bot is in the server and holds `needed` there (any one of them); an unknown server is left to the route's 404. */
const inGuild =
  (...needed: bigint[]): Check =>
  (state, params) => {
    const guild = state.guilds.get(params.guild!);
    if (!guild) return undefined;
    const held = botGuildPermissions(state, guild);
    if (held === null) return missingAccess();
    return needed.length === 0 || needed.some((p) => (held & p) === p) ? undefined : missingPermissions();
  };

/** As `inGuild`, and the member acted on ranks below the bot and is not the owner (Discord's role hierarchy). */
const onMember =
  (needed: bigint): Check =>
  (state, params) => {
    const refused = inGuild(needed)(state, params);
    const guild = state.guilds.get(params.guild!);
    if (refused || !guild || !guild.members.has(params.user!)) return refused;
    const target = params.user!;
    if (target === guild.ownerId || memberRank(guild, target) >= botRank(state, guild)) return missingPermissions();
    return undefined;
  };

/** Manage Roles, and the role given or taken sits below the bot's highest role and is no integration's. */
const onRole: Check = (state, params) => {
  const refused = inGuild(P.ManageRoles)(state, params);
  const role = state.guilds.get(params.guild!)?.roles.get(params.role!);
  if (refused || !role) return refused;
  return role.managed || role.position >= botRank(state, state.guilds.get(params.guild!)!) ? missingPermissions() : undefined;
};

/** In a guild channel: the bot sees it (else 50001) and holds `needed` there, the thread variant in a thread. */
const inChannel =
  (needed: bigint, inThread = needed): Check =>
  (state, params) => {
    for (const guild of state.guilds.values()) {
      const channel = guild.channels.get(params.channel!);
      if (!channel) continue;
      if (botGuildPermissions(state, guild) === null) return missingAccess();
      const held = channelPermissions(state, guild, channel);
      if (!(held & P.ViewChannel)) return missingAccess();
      const bit = THREAD_TYPES.includes(channel.type) ? inThread : needed;
      return (held & bit) === bit ? undefined : missingPermissions();
    }
    return undefined; // a DM channel, or none: the route answers
  };

/** Routes by method and pattern; routes not listed need no permission (the bot's own user, DMs, interactions). */
export const ROUTE_PERMISSIONS: Record<string, Check> = {
  'GET /guilds/:guild': inGuild(),
  'GET /guilds/:guild/roles': inGuild(),
  'GET /guilds/:guild/channels': inGuild(),
  'GET /guilds/:guild/threads/active': inGuild(),
  'GET /guilds/:guild/members': inGuild(),
  'GET /guilds/:guild/members/search': inGuild(),
  'GET /guilds/:guild/members/:user': inGuild(),
  'POST /guilds/:guild/channels': inGuild(P.ManageChannels),
  'PATCH /guilds/:guild/members/:user': onMember(P.ModerateMembers),
  'DELETE /guilds/:guild/members/:user': onMember(P.KickMembers),
  'PUT /guilds/:guild/members/:user/roles/:role': onRole,
  'DELETE /guilds/:guild/members/:user/roles/:role': onRole,
  'GET /guilds/:guild/bans/:user': inGuild(P.BanMembers),
  'PUT /guilds/:guild/bans/:user': onMember(P.BanMembers),
  'DELETE /guilds/:guild/bans/:user': inGuild(P.BanMembers),
  // Manage Server lists them with their use counts; View Audit Log alone without (guildRoutes.ts shapes each).
  'GET /guilds/:guild/invites': inGuild(P.ManageGuild, P.ViewAuditLog),
  'POST /channels/:channel/messages': inChannel(P.SendMessages, P.SendMessagesInThreads),
  'PATCH /channels/:channel/messages/:message': inChannel(0n),
  'POST /channels/:channel/invites': inChannel(P.CreateInstantInvite),
  'GET /channels/:channel': inChannel(0n),
  'PATCH /channels/:channel': inChannel(P.ManageChannels, P.ManageThreads),
  'DELETE /channels/:channel': inChannel(P.ManageChannels, P.ManageThreads),
};

/** The permissions README's invite link asks for (every one the service uses), as a role carries them. */
export const BOT_INVITE_PERMISSIONS = String(INVITE_LINK_PERMISSIONS);
