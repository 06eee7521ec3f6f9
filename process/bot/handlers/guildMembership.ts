import type { APIGuildMember, GatewayGuildDeleteDispatchData, GatewayGuildMemberUpdateDispatchData } from 'discord-api-types/v10';
import { applyMemberChange, markGuildLeft } from '../../../src/guild/platformMemberChange.js';
import { toMember } from '../../../src/platform/discord/discordShapes.js';
import type { DispatchHandler } from '../handler.js';

/** GUILD_MEMBER_UPDATE: the member's roles, nickname, names and timeout as Discord shows them now (a replay sets the same). */
export const guildMemberUpdate: DispatchHandler = async (data, { db }) => {
  const d = data as GatewayGuildMemberUpdateDispatchData;
  // The update carries every field toMember reads (user, nick, avatar, roles, joined_at, communication_disabled_until).
  const member = toMember(d.guild_id, d as unknown as APIGuildMember);
  await db.transaction().execute((trx) => applyMemberChange(trx, d.guild_id, member));
};

/**
 * GUILD_DELETE: with `unavailable` an outage on Discord's side (the server comes back with a GUILD_CREATE), without it
 * the bot was removed: the server is marked left, nothing deleted.
 */
export const guildDelete: DispatchHandler = async (data, { db, clock, logger }) => {
  const d = data as GatewayGuildDeleteDispatchData;
  if (d.unavailable) return;
  const marked = await db.transaction().execute((trx) => markGuildLeft(trx, d.id, clock.now()));
  if (marked) logger.info({ guildId: d.id }, 'the bot was removed from the server: marked left');
};
