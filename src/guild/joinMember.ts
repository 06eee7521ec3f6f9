import type { Kysely } from 'kysely';
import { findGuild } from '../../db/guild/guilds.js';
import { insertPlatformMemberIfNew, upsertPlatformMember } from '../../db/platform/local.js';
import { findPlatformBan } from '../../db/platform/moderation.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { Refusal } from '../core/refusal.js';

export class MemberRefusal extends Refusal<'GUILD_NOT_FOUND' | 'ALREADY_MEMBER' | 'BANNED' | 'MEMBER_NOT_FOUND'> {}

export interface MemberJoin {
  guildId: string;
  userId: string;
  username: string;
  bot: boolean;
  roleIds: string[];
  inviterId: string | null;
  inviteCode: string | null;
  at: Date;
  actor: AuditActor;
  /** A user who is already a member: `update` replaces their username, bot flag and roles (no join); `refuse` is ALREADY_MEMBER. */
  ifMember: 'update' | 'refuse';
  /** How the bot attributed the join (invite attribution), kept in the audit row; absent for operators' joins. */
  attribution?: string;
}

/**
 * Someone joins the server (on the local platform, the member row), in the caller's transaction, with its audit
 * row and, when the server has the Members feature, `members.joined`. A banned user cannot join.
 */
export async function joinMember(trx: Kysely<Database>, j: MemberJoin): Promise<{ joined: boolean; events: OutboxEvent[] }> {
  const guild = await findGuild(trx, j.guildId);
  if (!guild) throw new MemberRefusal('GUILD_NOT_FOUND', `Guild ${j.guildId} does not exist.`);
  if (await findPlatformBan(trx, j.guildId, j.userId)) throw new MemberRefusal('BANNED', `User ${j.userId} is banned from guild ${j.guildId}.`);
  const member = { guildId: j.guildId, userId: j.userId, username: j.username, bot: j.bot, roleIds: j.roleIds, joinedAt: j.at };
  const audit = (action: string) =>
    writeAudit(trx, {
      guildId: j.guildId,
      actor: j.actor,
      action,
      target: { type: 'member', id: j.userId },
      data: {
        username: j.username,
        bot: j.bot,
        roleIds: j.roleIds,
        inviterId: j.inviterId,
        inviteCode: j.inviteCode,
        ...(j.attribution === undefined ? {} : { attribution: j.attribution }),
      },
    });

  if (!(await insertPlatformMemberIfNew(trx, member))) {
    if (j.ifMember === 'refuse') throw new MemberRefusal('ALREADY_MEMBER', `User ${j.userId} is already a member of guild ${j.guildId}.`);
    await upsertPlatformMember(trx, member);
    await audit('members.update');
    return { joined: false, events: [] };
  }
  await audit('members.join');
  if (!guild.features.includes('members')) return { joined: true, events: [] };
  const event = await recordEvent(trx, {
    type: 'members.joined',
    guildId: j.guildId,
    createdAt: j.at,
    data: { userId: j.userId, username: j.username, bot: j.bot, inviterId: j.inviterId, inviteCode: j.inviteCode, joinedAt: j.at.toISOString() },
  });
  return { joined: true, events: [event] };
}
