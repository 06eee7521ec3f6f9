import type { GatewayGuildCreateDispatchData } from 'discord-api-types/v10';
import { guildPermissions } from '../../../src/core/botPermissions.js';
import { toChannel, toMember, toRole } from '../../../src/platform/discord/discordShapes.js';
import { syncGuild } from '../../../src/guild/syncGuild.js';
import type { BotDeps, DispatchHandler } from '../handler.js';
import { readInvites } from './readInvites.js';

/**
 * GUILD_CREATE (on connect for every server, and when the bot is added to one): the server registered, as
 * `admin guild create` does, or refreshed (roles, channels, the bot's member, the invite snapshot). Replaying it
 * sets the same rows again. Everything comes from the payload and READY (the bot's id): a new session's thousands
 * of GUILD_CREATEs make no REST read, but for the invites where they are read (readInvites.ts).
 */
export const guildCreate: DispatchHandler = async (data, deps) => {
  const d = data as GatewayGuildCreateDispatchData;
  // An outage on Discord's side: the server comes back later with a full GUILD_CREATE.
  if (d.unavailable) return;
  const botUserId = await botUserIdOf(deps, d.id);
  if (!botUserId) return void deps.logger.info({ guildId: d.id }, 'GUILD_CREATE for a server the bot cannot read; skipped');
  // A large server's payload lists only some members (the bot's own among them).
  const botMember = d.members.find((m) => m.user.id === botUserId);
  const roles = d.roles.map(toRole);
  // The bot's permissions as this payload gives them (its roles, the server's roles and owner), before any request.
  const permissions = botMember && guildPermissions({ guildId: d.id, ownerId: d.owner_id, userId: botUserId, roles, memberRoleIds: botMember.roles });
  const read = await readInvites(deps, d.id, permissions);
  const invites = Array.isArray(read) ? read : null;
  const { registered } = await deps.db.transaction().execute((trx) =>
    syncGuild(trx, {
      id: d.id,
      name: d.name,
      icon: d.icon,
      ownerId: d.owner_id,
      botUserId,
      roles,
      channels: [...d.channels, ...(d.threads ?? [])].map(toChannel),
      botMember: botMember && toMember(d.id, botMember),
      invites,
      at: deps.clock.now(),
    }),
  );
  deps.logger.info({ guildId: d.id, registered, invites: invites?.length ?? null }, registered ? 'server registered' : 'server refreshed');
};

/**
 * READY's bot id. A process that resumed its sessions saw no READY: the first GUILD_CREATE then (a server added
 * meanwhile) reads it once through the adapter, which asks Discord for the bot user once per process.
 */
async function botUserIdOf(deps: BotDeps, guildId: string): Promise<string | undefined> {
  if (deps.botUser.id) return deps.botUser.id;
  const server = await deps.platform.getGuild(guildId);
  if (server) deps.botUser.id = server.botUserId;
  return server?.botUserId;
}
