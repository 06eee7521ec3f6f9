import { SnowflakeId } from '../core/contract.js';
import { z } from '../core/zod.js';

export const Guild = z
  .object({
    id: SnowflakeId,
    name: z.string(),
    icon: z.string().nullable(),
    iconUrl: z.string().nullable(),
    memberCount: z.number().int().nullable().openapi({ description: 'Approximate; null when the chat platform is unreachable.' }),
    locale: z.enum(['en', 'ru', 'he']).openapi({ description: "The bot's language." }),
    enabledFeatures: z.array(z.string()),
  })
  .openapi('Guild');

export const Role = z
  .object({
    id: SnowflakeId,
    name: z.string(),
    color: z.string().nullable().openapi({ description: 'Hex colour such as #5865F2; null when the role has none.', example: '#5865F2' }),
    position: z.number().int(),
    managed: z.boolean(),
    hoist: z.boolean(),
    mentionable: z.boolean(),
  })
  .openapi('Role');

export const Channel = z
  .object({
    id: SnowflakeId,
    name: z.string(),
    type: z.enum(['text', 'voice', 'category', 'announcement', 'stage', 'forum', 'media', 'other']),
    parentId: SnowflakeId.nullable(),
    position: z.number().int(),
  })
  .openapi('Channel');

export const Member = z
  .object({
    userId: SnowflakeId,
    username: z.string().nullable(),
    globalName: z.string().nullable(),
    nickname: z.string().nullable(),
    displayName: z.string().nullable().openapi({ description: 'Nickname, else global name, else username.' }),
    avatarUrl: z.string().nullable(),
    bot: z.boolean(),
    roles: z.array(SnowflakeId).openapi({ description: 'Role ids.' }),
    joinedAt: z.string().nullable(),
  })
  .openapi('Member');

export const RoleList = z.object({ items: z.array(Role) }).openapi('RoleList');
export const ChannelList = z.object({ items: z.array(Channel) }).openapi('ChannelList');

export type GuildBody = z.infer<typeof Guild>;
export type RoleBody = z.infer<typeof Role>;
export type ChannelBody = z.infer<typeof Channel>;
export type MemberBody = z.infer<typeof Member>;
