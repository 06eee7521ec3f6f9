import { findGuild } from '../../../db/guild/guilds.js';
import { listPlatformMembers } from '../../../db/platform/local.js';
import { joinMember, MemberRefusal } from '../../../src/guild/joinMember.js';
import { leaveMember } from '../../../src/guild/leaveMember.js';
import type { DispatchHandler } from '../handler.js';

/** Not a Discord event: the bot queues it for each server of a new gateway session (READY), in that server's order. */
export const RECONCILE_MEMBERS = 'RECONCILE_MEMBERS';

/**
 * After a new session (a start, or a reconnect Discord did not let resume), the joins and leaves sent while the
 * bot was away are lost: the server's members as Discord lists them (REST, by pages) are compared with the
 * members recorded, and each difference is recorded once as the join or leave `simulate` would record
 * (members.joined dated by Discord's join time, members.left now). Joins and leaves that arrive meanwhile wait
 * behind it in the server's order, and are idempotent with it.
 */
export const reconcileMembers: DispatchHandler = async (data, { db, memberList, clock, logger }) => {
  const guildId = (data as { guild_id: string }).guild_id;
  if (!(await findGuild(db, guildId))) return;
  const onPlatform = await memberList(guildId);
  const recorded = new Set((await listPlatformMembers(db, guildId)).map((m) => m.user_id));
  const present = new Set(onPlatform.map((m) => m.userId));
  const joined = onPlatform.filter((m) => !recorded.has(m.userId));
  const left = [...recorded].filter((userId) => !present.has(userId));
  if (joined.length + left.length === 0) return;
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    const refused = (err: unknown) => {
      // A banned user still listed (the ban not yet seen): nothing to record, as for GUILD_MEMBER_ADD.
      if (!(err instanceof MemberRefusal)) throw err;
    };
    for (const m of joined) {
      await joinMember(trx, {
        guildId,
        userId: m.userId,
        username: m.username,
        bot: m.bot,
        roleIds: m.roleIds,
        inviterId: null,
        inviteCode: null,
        at: m.joinedAt ?? now,
        actor: { type: 'system' },
        ifMember: 'update',
      }).catch(refused);
    }
    for (const userId of left) await leaveMember(trx, { guildId, userId, at: now, actor: { type: 'system' } }).catch(refused);
  });
  logger.info({ guildId, joined: joined.length, left: left.length }, 'members reconciled after a new gateway session');
};
