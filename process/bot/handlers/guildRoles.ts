import type { GatewayGuildRoleDeleteDispatchData, GatewayGuildRoleModifyDispatchData } from 'discord-api-types/v10';
import { applyMirrorChange } from '../../../src/guild/platformMirror.js';
import { toRole } from '../../../src/platform/discord/discordShapes.js';
import type { DispatchHandler } from '../handler.js';

/** GUILD_ROLE_CREATE and GUILD_ROLE_UPDATE: the role's row as Discord shows it now. */
export const guildRoleModify: DispatchHandler = async (data, { db }) => {
  const d = data as GatewayGuildRoleModifyDispatchData;
  await db.transaction().execute((trx) => applyMirrorChange(trx, d.guild_id, { kind: 'role', role: toRole(d.role) }));
};

/** GUILD_ROLE_DELETE: the role's row goes, and the role from the members who held it. */
export const guildRoleDelete: DispatchHandler = async (data, { db }) => {
  const d = data as GatewayGuildRoleDeleteDispatchData;
  await db.transaction().execute((trx) => applyMirrorChange(trx, d.guild_id, { kind: 'roleDeleted', roleId: d.role_id }));
};
