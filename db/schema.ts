import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface GuildsTable {
  id: string;
  /** Last name seen on the platform: answers when the platform is unreachable. */
  name: string;
  icon: string | null;
  locale: string;
  plan: string;
  features: string[];
  blocked: boolean;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  guild_id: string;
  name: string;
  /** First characters of the key, shown in lists so a person can recognise it. */
  prefix: string;
  /** SHA-256 of the whole key; the key itself is never stored. */
  key_hash: Buffer;
  scopes: string[];
  created_by: string | null;
  created_at: CreatedAt;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  guild_id: string;
  actor_type: 'api_key' | 'operator' | 'system';
  actor_id: string | null;
  api_key_id: number | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  request_id: string | null;
  data: ColumnType<unknown, string | undefined, never>;
  created_at: CreatedAt;
}

export interface RateLimitCountersTable {
  bucket: string;
  window_start: Date;
  count: number;
}

export interface PlatformGuildsTable {
  guild_id: string;
  name: string;
  icon: string | null;
  owner_id: string;
  bot_user_id: string;
  /** Lets tests and operators simulate an outage of the platform. */
  reachable: Generated<boolean>;
}

export interface PlatformRolesTable {
  guild_id: string;
  role_id: string;
  name: string;
  color: number | null;
  position: number;
  managed: boolean;
  hoist: boolean;
  mentionable: boolean;
  /** Platform permission bits as a decimal string. */
  permissions: string;
}

export interface PlatformChannelsTable {
  guild_id: string;
  channel_id: string;
  name: string;
  /** Platform channel type, including thread types that the API never lists. */
  type: string;
  parent_id: string | null;
  position: number;
}

export interface PlatformMembersTable {
  guild_id: string;
  user_id: string;
  username: string;
  global_name: string | null;
  nickname: string | null;
  avatar: string | null;
  bot: boolean;
  role_ids: string[];
  joined_at: Date;
}

export interface Database {
  guilds: GuildsTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  rate_limit_counters: RateLimitCountersTable;
  platform_guilds: PlatformGuildsTable;
  platform_roles: PlatformRolesTable;
  platform_channels: PlatformChannelsTable;
  platform_members: PlatformMembersTable;
}

export type GuildRow = Selectable<GuildsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewAuditEntry = Insertable<AuditLogTable>;
