import { GuildMemberParams, GuildParams } from '../../src/core/contract.js';
import { ChannelList, Guild, Member, RoleList } from '../../src/guild/contract.js';
import { channelsInSidebarOrder, displayName, roleColorHex, rolesHighestFirst } from '../../src/guild/ordering.js';
import { memberNotFound } from '../../src/core/errors.js';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import { rememberGuildLook } from '../../db/guild/guilds.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../route.js';

const area = 'guild';
const scope = 'guild:read';

export function guildRoutes({ db, platform, memberCache }: AppDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}',
      operationId: 'getGuild',
      summary: 'Get the server',
      description:
        'Name, icon and member count come from the chat platform and are remembered; while the platform cannot be reached ' +
        'the last known name and icon are returned, with `iconUrl` and `memberCount` null.',
      area,
      scope,
      request: { params: GuildParams },
      response: { status: 200, schema: Guild, description: 'The server.' },
      async handle({ caller: { guild } }) {
        const live = await platform.getGuild(guild.id).catch((err: unknown) => {
          if (err instanceof PlatformUnavailableError) return undefined;
          throw err;
        });
        if (live) await rememberGuildLook(db, guild.id, { name: live.name, icon: live.icon });
        return {
          id: guild.id,
          name: live?.name ?? guild.name,
          icon: live ? live.icon : guild.icon,
          iconUrl: live?.iconUrl ?? null,
          memberCount: live?.approximateMemberCount ?? null,
          locale: guild.locale,
          enabledFeatures: guild.features,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/roles',
      operationId: 'listRoles',
      summary: 'List roles, highest first, without the everyone role',
      description: 'Read from the chat platform on each request. `color` is `#RRGGBB`, or null for a role without colour.',
      area,
      scope,
      request: { params: GuildParams },
      response: { status: 200, schema: RoleList, description: 'Roles, highest first.' },
      async handle({ caller: { guild } }) {
        const roles = rolesHighestFirst(guild.id, await platform.listRoles(guild.id));
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
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/channels',
      operationId: 'listChannels',
      summary: 'List channels in sidebar order, without threads',
      description: 'Channels outside any category first, then each category followed by its channels (text-like before voice-like, each by position).',
      area,
      scope,
      request: { params: GuildParams },
      response: { status: 200, schema: ChannelList, description: 'Channels in sidebar order.' },
      async handle({ caller: { guild } }) {
        const channels = channelsInSidebarOrder(await platform.listChannels(guild.id));
        return {
          items: channels.map((c) => ({
            id: c.id,
            name: c.name,
            type: c.type === 'thread' ? 'other' : c.type,
            parentId: c.parentId,
            position: c.position,
          })),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/members/{userId}',
      operationId: 'getMember',
      summary: 'Get a member (may be cached up to 5 minutes)',
      description: 'A user who is not a member of the server answers 404 MEMBER_NOT_FOUND; that answer may be cached too.',
      area,
      scope,
      request: { params: GuildMemberParams },
      response: { status: 200, schema: Member, description: 'The member.' },
      errors: ['MEMBER_NOT_FOUND'],
      async handle({ params, caller: { guild } }) {
        const member = await memberCache.getMember(guild.id, params.userId);
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
      },
    }),
  ];
}
