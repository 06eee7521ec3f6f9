import { GuildMemberParams, GuildParams } from '../../src/core/contract.js';
import { ChannelList, Guild, Member, RoleList } from '../../src/guild/contract.js';
import { readChannels, readGuild, readMember, readRoles } from '../../src/guild/readGuild.js';
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
      handle: ({ caller: { guild } }) => readGuild({ db, platform }, guild),
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
      handle: ({ caller: { guild } }) => readRoles(platform, guild.id),
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
      handle: ({ caller: { guild } }) => readChannels(platform, guild.id),
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
      handle: ({ params, caller: { guild } }) => readMember(memberCache, guild.id, params.userId),
    }),
  ];
}
