import type { Kysely } from 'kysely';
import { findGuild } from '../../db/guild/guilds.js';
import { removePlatformMember } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { recordInviteLeave } from '../invites/recordInviteLeave.js';
import { MemberRefusal } from './joinMember.js';

export interface MemberLeave {
  guildId: string;
  userId: string;
  at: Date;
  actor: AuditActor;
}

/**
 * A member leaves the server of their own accord (on the local platform, the member row goes), in the caller's
 * transaction, with its audit row and, when the server has the Members feature, `members.left` (reason `left`).
 */
export async function leaveMember(trx: Kysely<Database>, l: MemberLeave): Promise<{ username: string; events: OutboxEvent[] }> {
  const guild = await findGuild(trx, l.guildId);
  if (!guild) throw new MemberRefusal('GUILD_NOT_FOUND', `Guild ${l.guildId} does not exist.`);
  const removed = await removePlatformMember(trx, l.guildId, l.userId);
  if (!removed) throw new MemberRefusal('MEMBER_NOT_FOUND', `User ${l.userId} is not a member of guild ${l.guildId}.`);
  await writeAudit(trx, { guildId: l.guildId, actor: l.actor, action: 'members.leave', target: { type: 'member', id: l.userId }, data: { username: removed.username } });
  await recordInviteLeave(trx, l.guildId, l.userId, l.at);
  if (!guild.features.includes('members')) return { username: removed.username, events: [] };
  const event = await recordEvent(trx, {
    type: 'members.left',
    guildId: l.guildId,
    createdAt: l.at,
    data: { userId: l.userId, username: removed.username, reason: 'left', leftAt: l.at.toISOString() },
  });
  return { username: removed.username, events: [event] };
}
