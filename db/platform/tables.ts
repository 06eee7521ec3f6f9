import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../shared/columns.js';

export interface PlatformGuildsTable {
  guild_id: string;
  name: string;
  icon: string | null;
  owner_id: string;
  bot_user_id: string;
  /** Lets tests and operators simulate an outage of the platform. */
  reachable: Generated<boolean>;
  /** When the bot process last mirrored the server from the platform (GUILD_CREATE); null for rows it never saw. */
  mirrored_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Set when the bot was removed from the server (Discord's GUILD_DELETE); cleared when it is added again. */
  left_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
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
  timed_out_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  accepts_dms: Generated<boolean>;
}

export interface PlatformMessagesTable {
  id: Generated<number>;
  guild_id: string;
  channel_id: string;
  content: string;
  idempotency_key: string;
  created_at: CreatedAt;
  edited_at: Date | null;
  /** The buttons under it ({id, label}[]), null for none. */
  buttons: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface PlatformRoleChangesTable {
  id: Generated<number>;
  guild_id: string;
  user_id: string;
  role_id: string;
  action: 'add' | 'remove';
  reason: string | null;
  created_at: CreatedAt;
}

export interface PlatformBansTable {
  guild_id: string;
  user_id: string;
  reason: string | null;
  created_at: CreatedAt;
}

export interface PlatformModerationLogTable {
  id: Generated<number>;
  guild_id: string;
  user_id: string;
  action: 'kick' | 'ban' | 'unban' | 'timeout' | 'untimeout';
  reason: string | null;
  until: Date | null;
  created_at: CreatedAt;
}

export interface PlatformDirectMessagesTable {
  id: Generated<number>;
  guild_id: string;
  user_id: string;
  content: string;
  idempotency_key: string;
  created_at: CreatedAt;
  /** The buttons under it ({id, label}[]), null for none. */
  buttons: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface PlatformInvitesTable {
  code: string;
  guild_id: string;
  channel_id: string;
  max_uses: number;
  uses: Generated<number>;
  idempotency_key: string;
  created_at: CreatedAt;
}

export interface PlatformClosedChannelsTable {
  guild_id: string;
  channel_id: string;
  /** true: the thread was archived; false: the channel was deleted. */
  thread: boolean;
  idempotency_key: string;
  created_at: CreatedAt;
}

export interface HandledInteractionsTable {
  interaction_id: string;
  guild_id: string | null;
  handled_at: Date;
}

/** The fleet's stop on platform requests after a ban-like 429 (migration 2026-11-29-030). */
export interface PlatformBlocksTable {
  platform: 'discord';
  blocked_until: Date;
  reason: 'global' | 'cloudflare' | 'long-retry-after';
  /** The process that met the 429 (its name and host). */
  set_by: string;
  set_at: Generated<Date>;
}
