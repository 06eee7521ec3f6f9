import type { Kysely } from 'kysely';
import { findGuild } from '../../db/guild/guilds.js';
import { removePlatformMember } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { recordInviteLeave } from '../invites/recordInviteLeave.js';
import { MemberRefusal } from './joinMember.js';

/** How a member went: the spec's `members.left` is for every way out ("left, or was kicked or banned"). */
export type LeaveReason = 'left' | 'kicked' | 'banned';

export interface MemberLeave {
  guildId: string;
  userId: string;
  at: Date;
  actor: AuditActor;
}

/**
 * A member leaves the server of their own accord (on the local platform, the member row goes), in the caller's
 * transaction: the row removed, then the leave recorded as for every way out (reason `left`).
 */
export async function leaveMember(trx: Kysely<Database>, l: MemberLeave): Promise<{ username: string; events: OutboxEvent[] }> {
  if (!(await findGuild(trx, l.guildId))) throw new MemberRefusal('GUILD_NOT_FOUND', `Guild ${l.guildId} does not exist.`);
  const removed = await removePlatformMember(trx, l.guildId, l.userId);
  if (!removed) throw new MemberRefusal('MEMBER_NOT_FOUND', `User ${l.userId} is not a member of guild ${l.guildId}.`);
  const { events } = await recordMemberLeave(trx, { ...l, username: removed.username, reason: 'left' });
  return { username: removed.username, events };
}

/**
 * The one leave path, for a member already gone from the platform (they left, or a kick or ban removed them), in
 * the caller's transaction: the audit row, their invite join moved to `left`, and `members.left` when the server
 * has the Members feature.
 */
export async function recordMemberLeave(
  trx: Kysely<Database>,
  l: MemberLeave & { username: string | null; reason: LeaveReason },
): Promise<{ events: OutboxEvent[] }> {
  const guild = await findGuild(trx, l.guildId);
  await writeAudit(trx, {
    guildId: l.guildId,
    actor: l.actor,
    action: 'members.leave',
    target: { type: 'member', id: l.userId },
    data: { username: l.username, reason: l.reason },
  });
  await recordInviteLeave(trx, l.guildId, l.userId, l.at);
  if (!guild?.features.includes('members')) return { events: [] };
  const event = await recordEvent(trx, {
    type: 'members.left',
    guildId: l.guildId,
    createdAt: l.at,
    data: { userId: l.userId, username: l.username, reason: l.reason, leftAt: l.at.toISOString() },
  });
  return { events: [event] };
}
