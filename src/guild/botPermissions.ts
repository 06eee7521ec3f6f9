import type { Kysely } from 'kysely';
import { findBotPermissionSource } from '../../db/platform/mirror.js';
import type { Database } from '../../db/schema.js';
import { guildPermissions } from '../core/botPermissions.js';

/**
 * The bot's server-level permissions as the platform last told the bot process (GUILD_CREATE, then GUILD_ROLE_* and
 * GUILD_MEMBER_UPDATE of the bot's member keep the platform_* rows current): null in a server it was removed from
 * (GUILD_DELETE), undefined when they are not known (the server never mirrored by the bot), in which case callers ask the
 * platform and let it decide.
 */
export async function readBotPermissions(db: Kysely<Database>, guildId: string): Promise<bigint | null | undefined> {
  const source = await findBotPermissionSource(db, guildId);
  if (!source) return undefined;
  if (source.leftAt) return null;
  // Rows the bot never mirrored (`admin guild create`'s placeholders) say nothing of the bot's roles on the platform.
  if (!source.mirrored || !source.botRoleIds) return undefined;
  return guildPermissions({
    guildId,
    ownerId: source.ownerId,
    userId: source.botUserId,
    roles: source.roles.map((r) => ({ id: r.role_id, permissions: BigInt(r.permissions) })),
    memberRoleIds: source.botRoleIds,
  });
}
