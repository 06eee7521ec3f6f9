import type { IssuedInteraction } from './autocompleteRules.js';
import type { APIBan, APIChannel, APIGuildMember, APIMessage, APIRole, APIUser } from 'discord-api-types/v10';

// What the fake Discord knows: guilds with roles, channels and members, bans, messages, DM channels and
// invites. Shapes are Discord's own (discord-api-types), so the adapter is tested against the real wire format.

export interface FakeGuild {
  id: string;
  name: string;
  icon: string | null;
  ownerId: string;
  roles: Map<string, APIRole>;
  channels: Map<string, APIChannel>;
  members: Map<string, APIGuildMember>;
  bans: Map<string, APIBan>;
}

export interface FakeInvite {
  code: string;
  channelId: string;
  guildId: string;
  maxUses: number;
  uses: number;
  inviterId: string | null;
}

export interface FakeDiscordState {
  bot: APIUser;
  guilds: Map<string, FakeGuild>;
  /** Every user the fake has seen (members, banned users, DM recipients). */
  users: Map<string, APIUser>;
  /** Users whose DMs are closed to the bot: a DM to them answers 50007. */
  closedDms: Set<string>;
  /** Messages by id, with the channel they are in (guild channels and DM channels alike). */
  messages: Map<string, APIMessage>;
  /** DM channel id by recipient. */
  dmChannels: Map<string, string>;
  invites: Map<string, FakeInvite>;
  /** Each message's nonce, by channel, author and nonce, with when it was made (enforce_nonce's window: messageNonces.ts). */
  nonces: Map<string, { messageId: string; at: number }>;
  /** Every answer to an interaction (callbacks and edits of the original response), in order, with when it arrived. */
  interactionAnswers: FakeInteractionAnswer[];
  /** Interactions the gateway sent, by token, with when (`now`): their tokens expire as Discord's do. */
  interactions: Map<string, IssuedInteraction>;
  /** The fake's clock (default Date.now): interaction tokens and the gateway's windows are judged by it. */
  now(): number;
  nextId(): string;
}

export interface FakeInteractionAnswer {
  kind: 'callback' | 'edit';
  /** The interaction's id (callbacks) or the application's (edits). */
  id: string;
  token: string;
  body: Record<string, unknown> | null;
  /** The fake's `now()` when it received it (Date.now() unless the test gave the fake a clock). */
  at: number;
}

export interface FakeMemberSeed {
  id: string;
  username: string;
  globalName?: string | null;
  nick?: string | null;
  bot?: boolean;
  roles?: string[];
  joinedAt?: string;
  dmsClosed?: boolean;
}

export interface FakeGuildSeed {
  id: string;
  name: string;
  ownerId: string;
  icon?: string | null;
  /** The everyone role (id = guild id) is added when missing. */
  roles: Array<Pick<APIRole, 'id' | 'name' | 'position'> & Partial<APIRole>>;
  channels: Array<Pick<APIChannel, 'id' | 'type'> & { name: string; parent_id?: string | null; position?: number } & Record<string, unknown>>;
  members: FakeMemberSeed[];
  bans?: Array<{ userId: string; username?: string; reason: string | null }>;
}

let interactionSequence = 0n;
/** An interaction's id: a snowflake of when Discord created it (its timestamp is what a bot times the 3 s from). */
export const interactionSnowflake = (at: number) => String(((BigInt(at) - 1420070400000n) << 22n) | (interactionSequence++ & 0xfffn));

// Ids the fake hands out (messages, DM channels) are snowflakes above any seeded id.
let counter = 0n;
const idBase = (BigInt(Date.UTC(2026, 0, 1)) - 1420070400000n) << 22n;

export function createFakeState(bot: { id: string; username: string }, seeds: FakeGuildSeed[], now: () => number = Date.now): FakeDiscordState {
  const state: FakeDiscordState = {
    bot: userOf({ id: bot.id, username: bot.username, bot: true }),
    guilds: new Map(),
    users: new Map(),
    closedDms: new Set(),
    messages: new Map(),
    dmChannels: new Map(),
    invites: new Map(),
    nonces: new Map(),
    interactionAnswers: [],
    interactions: new Map(),
    now,
    nextId: () => String(idBase + (counter += 1n)),
  };
  state.users.set(bot.id, state.bot);
  for (const seed of seeds) addGuild(state, seed);
  return state;
}

export function addGuild(state: FakeDiscordState, seed: FakeGuildSeed): FakeGuild {
  const guild: FakeGuild = {
    id: seed.id,
    name: seed.name,
    icon: seed.icon ?? null,
    ownerId: seed.ownerId,
    roles: new Map(),
    channels: new Map(),
    members: new Map(),
    bans: new Map(),
  };
  const roles = seed.roles.some((r) => r.id === seed.id) ? seed.roles : [{ id: seed.id, name: '@everyone', position: 0 }, ...seed.roles];
  for (const r of roles) {
    guild.roles.set(r.id, {
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      managed: false,
      mentionable: false,
      permissions: '0',
      icon: null,
      unicode_emoji: null,
      flags: 0,
      ...r,
    } as APIRole);
  }
  for (const c of seed.channels) {
    guild.channels.set(c.id, { guild_id: seed.id, parent_id: null, position: 0, ...c } as unknown as APIChannel);
  }
  for (const m of seed.members) addMember(state, guild, m);
  for (const b of seed.bans ?? []) {
    const user = state.users.get(b.userId) ?? userOf({ id: b.userId, username: b.username ?? `user${b.userId.slice(-4)}` });
    state.users.set(user.id, user);
    guild.bans.set(b.userId, { user, reason: b.reason });
  }
  state.guilds.set(guild.id, guild);
  return guild;
}

export function addMember(state: FakeDiscordState, guild: FakeGuild, m: FakeMemberSeed): APIGuildMember {
  const user = userOf({ id: m.id, username: m.username, global_name: m.globalName ?? null, bot: m.bot ?? false });
  state.users.set(m.id, user);
  if (m.dmsClosed) state.closedDms.add(m.id);
  const member: APIGuildMember = {
    user,
    nick: m.nick ?? null,
    avatar: null,
    roles: m.roles ?? [],
    joined_at: m.joinedAt ?? '2025-01-01T00:00:00.000Z',
    deaf: false,
    mute: false,
    flags: 0 as APIGuildMember['flags'],
    communication_disabled_until: null,
  };
  guild.members.set(m.id, member);
  return member;
}

function userOf(u: Partial<APIUser> & { id: string; username: string }): APIUser {
  return { discriminator: '0', global_name: null, avatar: null, ...u };
}
