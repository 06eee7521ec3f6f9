import type { Kysely } from 'kysely';
import { findGuild } from '../../db/guild/guilds.js';
import { findPlatformMember } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import type { AuditActor } from '../../db/shared/audit.js';
import type { PlatformInvite } from '../core/platform.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { isFakeAccount, type JoinAttribution, type UnreadInvites } from '../invites/inviteAttribution.js';
import { attributeJoinByInvites } from '../invites/inviteSnapshot.js';
import { judgeInviteJoin } from '../invites/judgeInviteJoin.js';
import { joinMember } from './joinMember.js';
import { joinThroughInvite } from './joinThroughInvite.js';

export interface PlatformJoin {
  guildId: string;
  userId: string;
  username: string;
  bot: boolean;
  roleIds: string[];
  at: Date;
  actor: AuditActor;
}

export interface PlatformJoinResult {
  /** Null when the user was a member already (a repeated join only refreshes their details). */
  attribution: JoinAttribution | null;
  /** The verdict on an attributed join: `fake` for an account younger than FAKE_ACCOUNT_MAX_AGE_DAYS. */
  inviteStatus: 'pending' | 'fake' | null;
  events: OutboxEvent[];
}

/** Whether a join of this user would be a new join of a server the service knows (then the invites are worth reading). */
export async function isNewJoin(db: Kysely<Database>, guildId: string, userId: string): Promise<boolean> {
  return (await findGuild(db, guildId)) !== undefined && (await findPlatformMember(db, guildId, userId)) === undefined;
}

const attributionWord = (a: JoinAttribution) => (a.kind === 'unattributed' ? a.reason : a.kind);

/**
 * A member joins on the platform: the invite they used is told from the use counts (`invites` as read now, or why
 * none were: `invites-unreadable`, `invites-off`), then the join is recorded as `simulate invite-join` (an inviter credited, `pending`, or `fake`
 * at once for a new account) or as `simulate member-join` (unattributed, the reason in the audit row). Someone
 * already a member is one join: their details are refreshed and nothing is compared or credited.
 */
export async function recordPlatformJoin(trx: Kysely<Database>, j: PlatformJoin, invites: PlatformInvite[] | UnreadInvites): Promise<PlatformJoinResult> {
  const plain = { ...j, inviterId: null, inviteCode: null };
  if (!(await isNewJoin(trx, j.guildId, j.userId))) {
    const { events } = await joinMember(trx, { ...plain, ifMember: 'update' });
    return { attribution: null, inviteStatus: null, events };
  }
  const attribution: JoinAttribution = Array.isArray(invites) ? await attributeJoinByInvites(trx, j.guildId, invites, j.at) : { kind: 'unattributed', reason: invites };
  if (attribution.kind === 'invite' && attribution.inviterId !== j.userId) {
    const credit = { inviterId: attribution.inviterId, inviteCode: attribution.code };
    const { join, events } = await joinThroughInvite(trx, { ...j, ...credit, attribution: 'invite' });
    if (join.status !== 'pending' || !isFakeAccount(j.userId, j.at)) return { attribution, inviteStatus: join.status === 'pending' ? 'pending' : null, events };
    await judgeInviteJoin(trx, { guildId: j.guildId, userId: j.userId, verdict: 'fake', at: j.at, actor: { type: 'system' } });
    return { attribution, inviteStatus: 'fake', events };
  }
  // A member back through their own invite is a join without an inviter to credit.
  const word = attribution.kind === 'invite' ? 'self-invite' : attributionWord(attribution);
  const code = attribution.kind === 'unattributed' ? null : attribution.code;
  const { events } = await joinMember(trx, { ...plain, inviteCode: code, ifMember: 'refuse', attribution: word });
  return { attribution, inviteStatus: null, events };
}
