import type { Kysely } from 'kysely';
import { findPlatformGuild, type PlatformChannelInput, type PlatformRoleInput } from '../../db/platform/local.js';
import { deletePlatformChannel, deletePlatformRole, putPlatformChannels, putPlatformRoles } from '../../db/platform/mirror.js';
import type { Database } from '../../db/schema.js';
import type { PlatformChannel, PlatformRole } from '../core/platform.js';

// Single changes the platform reports between two GUILD_CREATEs (Discord's GUILD_ROLE_* and CHANNEL_*), kept in the
// platform_* rows of servers the service knows; a server it does not know is left alone (GUILD_CREATE registers it).

export const roleInput = (r: PlatformRole): PlatformRoleInput => ({
  roleId: r.id,
  name: r.name,
  color: r.color,
  position: r.position,
  managed: r.managed,
  hoist: r.hoist,
  mentionable: r.mentionable,
  permissions: r.permissions,
});

export const channelInput = (c: PlatformChannel): PlatformChannelInput => ({ channelId: c.id, name: c.name, type: c.type, parentId: c.parentId, position: c.position });

export type MirrorChange =
  | { kind: 'role'; role: PlatformRole }
  | { kind: 'roleDeleted'; roleId: string }
  | { kind: 'channel'; channel: PlatformChannel }
  | { kind: 'channelDeleted'; channelId: string };

/** Applies one change; false when the server is not one the service knows. */
export async function applyMirrorChange(trx: Kysely<Database>, guildId: string, change: MirrorChange): Promise<boolean> {
  if (!(await findPlatformGuild(trx, guildId))) return false;
  switch (change.kind) {
    case 'role':
      await putPlatformRoles(trx, guildId, [roleInput(change.role)]);
      break;
    case 'roleDeleted':
      await deletePlatformRole(trx, guildId, change.roleId);
      break;
    case 'channel':
      await putPlatformChannels(trx, guildId, [channelInput(change.channel)]);
      break;
    case 'channelDeleted':
      await deletePlatformChannel(trx, guildId, change.channelId);
      break;
  }
  return true;
}
