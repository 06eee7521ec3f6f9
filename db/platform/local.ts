import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Queries behind the local Platform adapter: the chat platform's state kept in PostgreSQL. */
export const findPlatformGuild = (db: Kysely<Database>, guildId: string) =>
  db.selectFrom('platform_guilds').selectAll().where('guild_id', '=', guildId).executeTakeFirst();

export async function countPlatformMembers(db: Kysely<Database>, guildId: string): Promise<number> {
  const row = await db
    .selectFrom('platform_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('guild_id', '=', guildId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const listPlatformRoles = (db: Kysely<Database>, guildId: string) =>
  db.selectFrom('platform_roles').selectAll().where('guild_id', '=', guildId).execute();

export const listPlatformChannels = (db: Kysely<Database>, guildId: string) =>
  db.selectFrom('platform_channels').selectAll().where('guild_id', '=', guildId).execute();

export const findPlatformMember = (db: Kysely<Database>, guildId: string, userId: string) =>
  db
    .selectFrom('platform_members')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export const listPlatformMembers = (db: Kysely<Database>, guildId: string) =>
  db.selectFrom('platform_members').selectAll().where('guild_id', '=', guildId).orderBy('user_id').execute();

export interface PlatformMemberInput {
  guildId: string;
  userId: string;
  username: string;
  globalName?: string | null;
  nickname?: string | null;
  bot: boolean;
  roleIds: string[];
  joinedAt?: Date;
}

const memberRow = (m: PlatformMemberInput) => ({
  guild_id: m.guildId,
  user_id: m.userId,
  username: m.username,
  global_name: m.globalName ?? null,
  nickname: m.nickname ?? null,
  avatar: null,
  bot: m.bot,
  role_ids: m.roleIds,
  joined_at: m.joinedAt ?? new Date(),
});

export async function upsertPlatformMember(db: Kysely<Database>, m: PlatformMemberInput): Promise<void> {
  const values = memberRow(m);
  await db
    .insertInto('platform_members')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['guild_id', 'user_id']).doUpdateSet({
        username: values.username,
        global_name: values.global_name,
        nickname: values.nickname,
        bot: values.bot,
        role_ids: values.role_ids,
      }),
    )
    .execute();
}

export async function deletePlatformMember(db: Kysely<Database>, guildId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('platform_members')
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export interface PlatformGuildInput {
  guildId: string;
  name: string;
  icon?: string | null;
  ownerId: string;
  botUserId: string;
}

export async function upsertPlatformGuild(db: Kysely<Database>, g: PlatformGuildInput): Promise<void> {
  const values = { guild_id: g.guildId, name: g.name, icon: g.icon ?? null, owner_id: g.ownerId, bot_user_id: g.botUserId };
  await db
    .insertInto('platform_guilds')
    .values(values)
    .onConflict((oc) => oc.column('guild_id').doUpdateSet({ name: values.name, icon: values.icon }))
    .execute();
}

export async function setPlatformReachable(db: Kysely<Database>, guildId: string, reachable: boolean): Promise<void> {
  await db.updateTable('platform_guilds').set({ reachable }).where('guild_id', '=', guildId).execute();
}

export interface PlatformRoleInput {
  roleId: string;
  name: string;
  color?: number | null;
  position: number;
  managed?: boolean;
  hoist?: boolean;
  mentionable?: boolean;
  permissions?: bigint;
}

/** A platform_roles row of the role (also the bot's mirror, db/platform/mirror.ts). */
export const platformRoleRow = (guildId: string, r: PlatformRoleInput) => ({
  guild_id: guildId,
  role_id: r.roleId,
  name: r.name,
  color: r.color ?? null,
  position: r.position,
  managed: r.managed ?? false,
  hoist: r.hoist ?? false,
  mentionable: r.mentionable ?? false,
  permissions: String(r.permissions ?? 0n),
});

export async function upsertPlatformRoles(db: Kysely<Database>, guildId: string, roles: PlatformRoleInput[]): Promise<void> {
  if (roles.length === 0) return;
  await db
    .insertInto('platform_roles')
    .values(
      roles.map((r) => platformRoleRow(guildId, r)),
    )
    .onConflict((oc) => oc.columns(['guild_id', 'role_id']).doNothing())
    .execute();
}

export interface PlatformChannelInput {
  channelId: string;
  name: string;
  type: string;
  parentId?: string | null;
  position: number;
}

/** A platform_channels row of the channel (also the bot's mirror, db/platform/mirror.ts). */
export const platformChannelRow = (guildId: string, c: PlatformChannelInput) => ({
  guild_id: guildId,
  channel_id: c.channelId,
  name: c.name,
  type: c.type,
  parent_id: c.parentId ?? null,
  position: c.position,
});

export async function upsertPlatformChannels(db: Kysely<Database>, guildId: string, channels: PlatformChannelInput[]): Promise<void> {
  if (channels.length === 0) return;
  await db
    .insertInto('platform_channels')
    .values(
      channels.map((c) => platformChannelRow(guildId, c)),
    )
    .onConflict((oc) => oc.columns(['guild_id', 'channel_id']).doNothing())
    .execute();
}

/** A member together with the guild's reachability, in one round trip (the member lookup is on hot paths). */
export const findPlatformMemberOfGuild = (db: Kysely<Database>, guildId: string, userId: string) =>
  db
    .selectFrom('platform_guilds as g')
    .leftJoin('platform_members as m', (join) => join.onRef('m.guild_id', '=', 'g.guild_id').on('m.user_id', '=', userId))
    .select(['g.reachable', 'm.user_id', 'm.username', 'm.global_name', 'm.nickname', 'm.avatar', 'm.bot', 'm.role_ids', 'm.joined_at', 'm.timed_out_until'])
    .where('g.guild_id', '=', guildId)
    .executeTakeFirst();

/** Adds the members the guild does not have yet and leaves existing ones (and their roles) as they are. */
export async function insertPlatformMembersIfMissing(db: Kysely<Database>, members: PlatformMemberInput[]): Promise<void> {
  if (members.length === 0) return;
  await db
    .insertInto('platform_members')
    .values(members.map(memberRow))
    .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doNothing())
    .execute();
}

/** Adds the member unless they are already in the server; true when added (a join), false when they were there. */
export async function insertPlatformMemberIfNew(db: Kysely<Database>, m: PlatformMemberInput): Promise<boolean> {
  const inserted = await db
    .insertInto('platform_members')
    .values(memberRow(m))
    .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Removes the member and returns who it was; undefined when the user was not a member. */
export async function removePlatformMember(db: Kysely<Database>, guildId: string, userId: string): Promise<{ username: string } | undefined> {
  return db
    .deleteFrom('platform_members')
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .returning('username')
    .executeTakeFirst();
}
