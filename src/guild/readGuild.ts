import type { Kysely } from 'kysely';
import { rememberGuildLook, type GuildRecord } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import { memberNotFound } from '../core/errors.js';
import type { MemberCache } from '../core/memberCache.js';
import { PlatformUnavailableError, type Platform } from '../core/platform.js';
import type { z } from '../core/zod.js';
import type { ChannelList, Guild, Member, RoleList } from './contract.js';
import { channelsInSidebarOrder, displayName, roleColorHex, rolesHighestFirst } from './ordering.js';

/**
 * The server as the platform shows it now, remembered for when it cannot be reached: then the last known name and
 * icon answer, with `iconUrl` and `memberCount` null.
 */
export async function readGuild(deps: { db: Kysely<Database>; platform: Platform }, guild: GuildRecord): Promise<z.infer<typeof Guild>> {
  const live = await deps.platform.getGuild(guild.id).catch((err: unknown) => {
    if (err instanceof PlatformUnavailableError) return undefined;
    throw err;
  });
  if (live) await rememberGuildLook(deps.db, guild.id, { name: live.name, icon: live.icon });
  return {
    id: guild.id,
    name: live?.name ?? guild.name,
    icon: live ? live.icon : guild.icon,
    iconUrl: live?.iconUrl ?? null,
    memberCount: live?.approximateMemberCount ?? null,
    locale: guild.locale,
    enabledFeatures: guild.features,
  };
}

/** Roles highest first, without the everyone role. */
export async function readRoles(platform: Platform, guildId: string): Promise<z.infer<typeof RoleList>> {
  const roles = rolesHighestFirst(guildId, await platform.listRoles(guildId));
  return {
    items: roles.map((r) => ({
      id: r.id,
      name: r.name,
      color: roleColorHex(r.color),
      position: r.position,
      managed: r.managed,
      hoist: r.hoist,
      mentionable: r.mentionable,
    })),
  };
}

/** Channels in sidebar order, threads shown as `other`. */
export async function readChannels(platform: Platform, guildId: string): Promise<z.infer<typeof ChannelList>> {
  const channels = channelsInSidebarOrder(await platform.listChannels(guildId));
  return {
    items: channels.map((c) => ({
      id: c.id,
      name: c.name,
      type: c.type === 'thread' ? 'other' : c.type,
      parentId: c.parentId,
      position: c.position,
    })),
  };
}

/** A member (through the member cache); refused with MEMBER_NOT_FOUND for a user who is not one. */
export async function readMember(memberCache: MemberCache, guildId: string, userId: string): Promise<z.infer<typeof Member>> {
  const member = await memberCache.getMember(guildId, userId);
  if (!member) throw memberNotFound();
  return {
    userId: member.userId,
    username: member.username,
    globalName: member.globalName,
    nickname: member.nickname,
    displayName: displayName(member),
    avatarUrl: member.avatarUrl,
    bot: member.bot,
    roles: member.roleIds,
    joinedAt: member.joinedAt?.toISOString() ?? null,
  };
}
