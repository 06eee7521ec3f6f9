import type { GatewayGuildCreateDispatchData } from 'discord-api-types/v10';
import { guildPermissions } from '../../../src/core/botPermissions.js';
import { toChannel, toMember, toRole } from '../../../src/platform/discord/discordShapes.js';
import { syncGuild } from '../../../src/guild/syncGuild.js';
import type { DispatchHandler } from '../handler.js';
import { readInvites } from './readInvites.js';

/**
 * GUILD_CREATE (on connect for every server, and when the bot is added to one): the server registered, as
 * `admin guild create` does, or refreshed (roles, channels, the bot's member, the invite snapshot). Replaying it
 * sets the same rows again.
 */
export const guildCreate: DispatchHandler = async (data, deps) => {
  const d = data as GatewayGuildCreateDispatchData;
  // An outage on Discord's side: the server comes back later with a full GUILD_CREATE.
  if (d.unavailable) return;
  const server = await deps.platform.getGuild(d.id);
  if (!server) return void deps.logger.info({ guildId: d.id }, 'GUILD_CREATE for a server the bot cannot read; skipped');
  const botMember = d.members.find((m) => m.user.id === server.botUserId);
  const roles = d.roles.map(toRole);
  // The bot's permissions as this payload gives them (its roles, the server's roles and owner), before any request.
  const permissions = botMember && guildPermissions({ guildId: d.id, ownerId: d.owner_id, userId: server.botUserId, roles, memberRoleIds: botMember.roles });
  const read = await readInvites(deps, d.id, permissions);
  const invites = Array.isArray(read) ? read : null;
  const { registered } = await deps.db.transaction().execute((trx) =>
    syncGuild(trx, {
      id: d.id,
      name: d.name,
      icon: d.icon,
      ownerId: d.owner_id,
      botUserId: server.botUserId,
      roles,
      channels: [...d.channels, ...(d.threads ?? [])].map(toChannel),
      botMember: botMember && toMember(d.id, botMember),
      invites,
      at: deps.clock.now(),
    }),
  );
  deps.logger.info({ guildId: d.id, registered, invites: invites?.length ?? null }, registered ? 'server registered' : 'server refreshed');
};
