import type { GatewayGuildMemberAddDispatchData } from 'discord-api-types/v10';
import { joinMember, MemberRefusal } from '../../../src/guild/joinMember.js';
import type { DispatchHandler } from '../handler.js';

/**
 * GUILD_MEMBER_ADD: the join `simulate member-join` records. A repeated add of someone already a member only
 * refreshes their username and roles (`ifMember: 'update'`), so a replayed dispatch is still one join.
 */
export const guildMemberAdd: DispatchHandler = async (data, { db, clock, logger }) => {
  const d = data as GatewayGuildMemberAddDispatchData;
  const user = d.user;
  try {
    await db.transaction().execute((trx) =>
      joinMember(trx, {
        guildId: d.guild_id,
        userId: user.id,
        username: user.username,
        bot: user.bot ?? false,
        roleIds: d.roles,
        // Invite attribution compares invite use counts: a later slice of issue 24.
        inviterId: null,
        inviteCode: null,
        // Discord's own join time, so a replayed dispatch dates the join as the first did (null only for guests).
        at: d.joined_at ? new Date(d.joined_at) : clock.now(),
        actor: { type: 'system' },
        ifMember: 'update',
      }),
    );
  } catch (err) {
    // A server the service does not know, or a banned user Discord let in before the ban reached us: nothing to record.
    if (err instanceof MemberRefusal) return void logger.info({ guildId: d.guild_id, userId: user.id, code: err.code }, 'member join not recorded');
    throw err;
  }
};
