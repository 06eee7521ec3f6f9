import { ChannelType, type APIChannel, type APIExtendedInvite, type APIGuild, type APIGuildMember, type APIRole } from 'discord-api-types/v10';
import type { PlatformChannel, PlatformChannelType, PlatformGuild, PlatformInvite, PlatformMember, PlatformRole } from '../../core/platform.js';

// Discord's payloads to the port's shapes; nothing of discord-api-types leaves this folder.

const CDN = 'https://cdn.discordapp.com';

export function toGuild(g: APIGuild, botUserId: string): PlatformGuild {
  return {
    id: g.id,
    name: g.name,
    icon: g.icon,
    iconUrl: g.icon ? `${CDN}/icons/${g.id}/${g.icon}.png` : null,
    ownerId: g.owner_id,
    botUserId,
    approximateMemberCount: g.approximate_member_count ?? 0,
  };
}

export function toRole(r: APIRole): PlatformRole {
  return {
    id: r.id,
    name: r.name,
    color: r.color || null,
    position: r.position,
    managed: r.managed,
    hoist: r.hoist,
    mentionable: r.mentionable,
    permissions: BigInt(r.permissions),
  };
}

const CHANNEL_TYPE: Partial<Record<ChannelType, PlatformChannelType>> = {
  [ChannelType.GuildText]: 'text',
  [ChannelType.GuildVoice]: 'voice',
  [ChannelType.GuildCategory]: 'category',
  [ChannelType.GuildAnnouncement]: 'announcement',
  [ChannelType.GuildStageVoice]: 'stage',
  [ChannelType.GuildForum]: 'forum',
  [ChannelType.GuildMedia]: 'media',
  [ChannelType.PublicThread]: 'thread',
  [ChannelType.PrivateThread]: 'thread',
  [ChannelType.AnnouncementThread]: 'thread',
};

export function toChannel(c: APIChannel): PlatformChannel {
  const guildChannel = c as APIChannel & { name?: string | null; parent_id?: string | null; position?: number };
  return {
    id: c.id,
    name: guildChannel.name ?? '',
    type: CHANNEL_TYPE[c.type] ?? 'other',
    parentId: guildChannel.parent_id ?? null,
    position: guildChannel.position ?? 0,
  };
}

export function toMember(guildId: string, m: APIGuildMember): PlatformMember {
  const user = m.user;
  const avatar = m.avatar ? `${CDN}/guilds/${guildId}/users/${user.id}/avatars/${m.avatar}.png` : user.avatar ? `${CDN}/avatars/${user.id}/${user.avatar}.png` : null;
  return {
    userId: user.id,
    username: user.username,
    globalName: user.global_name,
    nickname: m.nick ?? null,
    avatarUrl: avatar,
    bot: user.bot ?? false,
    roleIds: m.roles,
    joinedAt: m.joined_at ? new Date(m.joined_at) : null,
    timedOutUntil: m.communication_disabled_until ? new Date(m.communication_disabled_until) : null,
  };
}

export function toInvite(i: APIExtendedInvite): PlatformInvite {
  return { code: i.code, inviterId: i.inviter?.id ?? null, channelId: i.channel?.id ?? null, uses: i.uses, maxUses: i.max_uses };
}
