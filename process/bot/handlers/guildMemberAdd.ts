import type { GatewayGuildMemberAddDispatchData } from 'discord-api-types/v10';
import { MemberRefusal } from '../../../src/guild/joinMember.js';
import { isNewJoin, recordPlatformJoin } from '../../../src/guild/recordPlatformJoin.js';
import type { DispatchHandler } from '../handler.js';
import { readInvites } from './readInvites.js';

/**
 * GUILD_MEMBER_ADD: the join `simulate invite-join` (an inviter told from the invites' use counts) or
 * `simulate member-join` (unattributed) records. A repeated add of someone already a member only refreshes their
 * username and roles, reads no invites and credits nobody, so a replayed dispatch is still one join.
 */
export const guildMemberAdd: DispatchHandler = async (data, deps) => {
  const { db, clock, logger } = deps;
  const d = data as GatewayGuildMemberAddDispatchData;
  const user = d.user;
  try {
    // Read as close to the join as possible: a later join would raise another count before the comparison.
    const invites = (await isNewJoin(db, d.guild_id, user.id)) ? await readInvites(deps, d.guild_id) : 'invites-unreadable';
    const { attribution, inviteStatus } = await db.transaction().execute((trx) =>
      recordPlatformJoin(
        trx,
        {
          guildId: d.guild_id,
          userId: user.id,
          username: user.username,
          bot: user.bot ?? false,
          roleIds: d.roles,
          // Discord's own join time, so a replayed dispatch dates the join as the first did (null only for guests).
          at: d.joined_at ? new Date(d.joined_at) : clock.now(),
          actor: { type: 'system' },
        },
        invites,
      ),
    );
    if (attribution) logger.debug({ guildId: d.guild_id, userId: user.id, attribution, inviteStatus }, 'member join recorded');
  } catch (err) {
    // A server the service does not know, or a banned user Discord let in before the ban reached us: nothing to record.
    if (err instanceof MemberRefusal) return void logger.info({ guildId: d.guild_id, userId: user.id, code: err.code }, 'member join not recorded');
    throw err;
  }
};
