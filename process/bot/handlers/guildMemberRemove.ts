import type { GatewayGuildMemberRemoveDispatchData } from 'discord-api-types/v10';
import { MemberRefusal } from '../../../src/guild/joinMember.js';
import { leaveMember } from '../../../src/guild/leaveMember.js';
import type { DispatchHandler } from '../handler.js';

/**
 * GUILD_MEMBER_REMOVE: the leave `simulate member-leave` records. Someone who is no longer a member (a replayed
 * dispatch, a leave already recorded) is not left twice.
 */
export const guildMemberRemove: DispatchHandler = async (data, { db, clock, logger }) => {
  const d = data as GatewayGuildMemberRemoveDispatchData;
  try {
    // Discord's payload carries no time: the leave is dated when the bot hears of it.
    await db.transaction().execute((trx) => leaveMember(trx, { guildId: d.guild_id, userId: d.user.id, at: clock.now(), actor: { type: 'system' } }));
  } catch (err) {
    if (err instanceof MemberRefusal) return void logger.info({ guildId: d.guild_id, userId: d.user.id, code: err.code }, 'member leave not recorded');
    throw err;
  }
};
