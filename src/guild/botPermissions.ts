import type { Kysely } from 'kysely';
import { findBotPermissionSource } from '../../db/platform/mirror.js';
import type { Database } from '../../db/schema.js';
import { guildPermissions } from '../core/botPermissions.js';

/**
 * The bot's server-level permissions as the platform last told the bot process (GUILD_CREATE, then GUILD_ROLE_* and
 * GUILD_MEMBER_UPDATE of the bot's member keep the platform_* rows current): none in a server it was removed from,
 * undefined when they are not known (the server or the bot's member never seen), in which case callers ask the
 * platform and let it decide.
 */
export async function readBotPermissions(db: Kysely<Database>, guildId: string): Promise<bigint | undefined> {
  const source = await findBotPermissionSource(db, guildId);
  if (!source) return undefined;
  if (source.leftAt) return 0n;
  if (!source.botRoleIds) return undefined;
  return guildPermissions({
    guildId,
    ownerId: source.ownerId,
    userId: source.botUserId,
    roles: source.roles.map((r) => ({ id: r.role_id, permissions: BigInt(r.permissions) })),
    memberRoleIds: source.botRoleIds,
  });
}
