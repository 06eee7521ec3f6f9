import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { platformChannelRow, platformRoleRow, type PlatformChannelInput, type PlatformRoleInput } from './local.js';

// The bot keeps the platform_* tables a mirror of what Discord tells it (GUILD_CREATE, GUILD_ROLE_*, CHANNEL_*):
// whole lists replace what was there, single events change one row.

export async function putPlatformRoles(db: Kysely<Database>, guildId: string, roles: PlatformRoleInput[]): Promise<void> {
  if (roles.length === 0) return;
  await db
    .insertInto('platform_roles')
    .values(roles.map((r) => platformRoleRow(guildId, r)))
    .onConflict((oc) =>
      oc.columns(['guild_id', 'role_id']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        color: eb.ref('excluded.color'),
        position: eb.ref('excluded.position'),
        managed: eb.ref('excluded.managed'),
        hoist: eb.ref('excluded.hoist'),
        mentionable: eb.ref('excluded.mentionable'),
        permissions: eb.ref('excluded.permissions'),
      })),
    )
    .execute();
}

/** The role is gone: its row, and the role on every member that held it (Discord takes it off them too). */
export async function deletePlatformRole(db: Kysely<Database>, guildId: string, roleId: string): Promise<void> {
  await db.deleteFrom('platform_roles').where('guild_id', '=', guildId).where('role_id', '=', roleId).execute();
  await db
    .updateTable('platform_members')
    .set({ role_ids: sql<string[]>`array_remove(role_ids, ${roleId})` })
    .where('guild_id', '=', guildId)
    .where(sql<boolean>`${roleId} = any(role_ids)`)
    .execute();
}

/** The server's whole role list: rows are updated or added, roles missing from the list removed. */
export async function replacePlatformRoles(db: Kysely<Database>, guildId: string, roles: PlatformRoleInput[]): Promise<void> {
  await putPlatformRoles(db, guildId, roles);
  const kept = roles.map((r) => r.roleId);
  const gone = await db
    .selectFrom('platform_roles')
    .select('role_id')
    .where('guild_id', '=', guildId)
    .$if(kept.length > 0, (q) => q.where('role_id', 'not in', kept))
    .execute();
  for (const r of gone) await deletePlatformRole(db, guildId, r.role_id);
}

export async function putPlatformChannels(db: Kysely<Database>, guildId: string, channels: PlatformChannelInput[]): Promise<void> {
  if (channels.length === 0) return;
  await db
    .insertInto('platform_channels')
    .values(channels.map((c) => platformChannelRow(guildId, c)))
    .onConflict((oc) =>
      oc.columns(['guild_id', 'channel_id']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        type: eb.ref('excluded.type'),
        parent_id: eb.ref('excluded.parent_id'),
        position: eb.ref('excluded.position'),
      })),
    )
    .execute();
}

export async function deletePlatformChannel(db: Kysely<Database>, guildId: string, channelId: string): Promise<void> {
  await db.deleteFrom('platform_channels').where('guild_id', '=', guildId).where('channel_id', '=', channelId).execute();
}

export async function replacePlatformChannels(db: Kysely<Database>, guildId: string, channels: PlatformChannelInput[]): Promise<void> {
  await putPlatformChannels(db, guildId, channels);
  const kept = channels.map((c) => c.channelId);
  await db
    .deleteFrom('platform_channels')
    .where('guild_id', '=', guildId)
    .$if(kept.length > 0, (q) => q.where('channel_id', 'not in', kept))
    .execute();
}

export async function refreshPlatformGuild(db: Kysely<Database>, g: { guildId: string; name: string; icon: string | null; ownerId: string; botUserId: string }): Promise<void> {
  await db
    .insertInto('platform_guilds')
    .values({ guild_id: g.guildId, name: g.name, icon: g.icon, owner_id: g.ownerId, bot_user_id: g.botUserId, mirrored_at: sql<Date>`now()` })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet({ name: g.name, icon: g.icon, owner_id: g.ownerId, bot_user_id: g.botUserId, mirrored_at: sql<Date>`now()`, left_at: null }))
    .execute();
}

/** The bot was removed from the server: marked, nothing deleted. False when the service has no row of it. */
export async function markPlatformGuildLeft(db: Kysely<Database>, guildId: string, at: Date): Promise<boolean> {
  const result = await db.updateTable('platform_guilds').set({ left_at: at }).where('guild_id', '=', guildId).where('left_at', 'is', null).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What the bot's permissions there are computed from: the server's owner, its roles and the bot member's roles. */
export async function findBotPermissionSource(db: Kysely<Database>, guildId: string) {
  const guild = await db.selectFrom('platform_guilds').select(['owner_id', 'bot_user_id', 'left_at', 'mirrored_at']).where('guild_id', '=', guildId).executeTakeFirst();
  if (!guild) return undefined;
  const [roles, bot] = await Promise.all([
    db.selectFrom('platform_roles').select(['role_id', 'permissions']).where('guild_id', '=', guildId).execute(),
    db.selectFrom('platform_members').select('role_ids').where('guild_id', '=', guildId).where('user_id', '=', guild.bot_user_id).executeTakeFirst(),
  ]);
  return { ownerId: guild.owner_id, botUserId: guild.bot_user_id, leftAt: guild.left_at, mirrored: guild.mirrored_at !== null, roles, botRoleIds: bot?.role_ids };
}

/** A member's details as the platform reports a change of them (Discord's GUILD_MEMBER_UPDATE); false when not recorded. */
export async function updatePlatformMember(
  db: Kysely<Database>,
  m: { guildId: string; userId: string; username: string; globalName: string | null; nickname: string | null; roleIds: string[]; timedOutUntil: Date | null },
): Promise<boolean> {
  const result = await db
    .updateTable('platform_members')
    .set({ username: m.username, global_name: m.globalName, nickname: m.nickname, role_ids: m.roleIds, timed_out_until: m.timedOutUntil })
    .where('guild_id', '=', m.guildId)
    .where('user_id', '=', m.userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
