import { ChannelType, type APIGuildMember } from 'discord-api-types/v10';
import { addMember, type FakeDiscordState, type FakeInvite, type FakeMemberSeed } from './state.js';

// Dispatch payloads built from the fake's state, so what the gateway announces matches what the HTTP fake answers
// (a join through an invite raises that invite's uses, as Discord does, before GUILD_MEMBER_ADD goes out).

const THREAD_TYPES: number[] = [ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread];

function guildOf(state: FakeDiscordState, guildId: string) {
  const guild = state.guilds.get(guildId);
  if (!guild) throw new Error(`The fake has no guild ${guildId}.`);
  return guild;
}

/** GUILD_CREATE of a seeded guild: roles, channels (threads apart), every member (the bot's among them, when seeded). */
export function guildCreatePayload(state: FakeDiscordState, guildId: string) {
  const g = guildOf(state, guildId);
  const all = [...g.channels.values()];
  const isThread = (c: { type: number }) => THREAD_TYPES.includes(c.type);
  return {
    id: g.id,
    name: g.name,
    icon: g.icon,
    owner_id: g.ownerId,
    roles: [...g.roles.values()],
    // Discord leaves guild_id out of the channels inside GUILD_CREATE.
    channels: all.filter((c) => !isThread(c)).map((c) => ({ ...c, guild_id: undefined })),
    threads: all.filter(isThread),
    members: [...g.members.values()],
    member_count: g.members.size,
    joined_at: '2026-01-01T00:00:00.000Z',
    large: false,
    unavailable: false,
    voice_states: [],
    presences: [],
    stage_instances: [],
  };
}

/** An invite made by a member (not through the API, as people make them in Discord's client). */
export function addFakeInvite(state: FakeDiscordState, i: { guildId: string; channelId: string; inviterId: string | null; code?: string; maxUses?: number; uses?: number }): FakeInvite {
  guildOf(state, i.guildId);
  const invite: FakeInvite = {
    code: i.code ?? Buffer.from(state.nextId()).toString('base64url').slice(-10),
    guildId: i.guildId,
    channelId: i.channelId,
    inviterId: i.inviterId,
    maxUses: i.maxUses ?? 0,
    uses: i.uses ?? 0,
  };
  state.invites.set(invite.code, invite);
  return invite;
}

/** INVITE_CREATE of an invite the fake holds. */
export function inviteCreatePayload(state: FakeDiscordState, code: string) {
  const i = state.invites.get(code)!;
  return {
    channel_id: i.channelId,
    code: i.code,
    created_at: '2026-01-01T00:00:00.000Z',
    guild_id: i.guildId,
    ...(i.inviterId ? { inviter: state.users.get(i.inviterId) } : {}),
    max_age: 0,
    max_uses: i.maxUses,
    temporary: false,
    uses: i.uses,
    expires_at: null,
  };
}

/**
 * Someone joins through the invite: its uses rise (Discord deletes it at its last allowed use) and they become a
 * member. Returns GUILD_MEMBER_ADD's payload.
 */
export function joinThroughFakeInvite(state: FakeDiscordState, code: string, seed: FakeMemberSeed) {
  const invite = state.invites.get(code);
  if (!invite) throw new Error(`The fake has no invite ${code}.`);
  invite.uses += 1;
  if (invite.maxUses > 0 && invite.uses >= invite.maxUses) state.invites.delete(code);
  return memberAddPayload(invite.guildId, addMember(state, guildOf(state, invite.guildId), seed));
}

export function memberAddPayload(guildId: string, m: APIGuildMember) {
  return { guild_id: guildId, ...m };
}
