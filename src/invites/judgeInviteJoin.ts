import type { Kysely } from 'kysely';
import { lockInviteJoin, type InviteJoinRecord } from '../../db/invites/joins.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { applyBucket } from './applyBucket.js';
import { InviteRefusal } from './inviteRefusal.js';
import { nextBucket } from './joinBuckets.js';
import { requestMilestoneCheck } from './requestMilestoneCheck.js';

export interface InviteVerdict {
  guildId: string;
  userId: string;
  verdict: 'verify' | 'fake';
  at: Date;
  actor: AuditActor;
}

/** The bot's verdict on a pending join (verified: it counts; fake: it never does), with its audit row. */
export async function judgeInviteJoin(trx: Kysely<Database>, v: InviteVerdict): Promise<InviteJoinRecord> {
  const join = await lockInviteJoin(trx, v.guildId, v.userId);
  if (!join) throw new InviteRefusal('JOIN_NOT_ATTRIBUTED', `User ${v.userId} did not join guild ${v.guildId} through an invite.`);
  const t = nextBucket(join, v.verdict);
  if (!t) throw new InviteRefusal('JOIN_NOT_PENDING', `The join of ${v.userId} is ${join.status}; only a pending join can be verified or marked fake.`);
  const after = await applyBucket(trx, join, t, v.at);
  await writeAudit(trx, {
    guildId: v.guildId,
    actor: v.actor,
    action: v.verdict === 'verify' ? 'invites.verify' : 'invites.fake',
    target: { type: 'member', id: v.userId },
    data: { inviterId: join.inviterId, seasonId: after.seasonId },
  });
  // A verified join raises the inviter's invites: milestone rewards follow (the start relay launches the check).
  if (after.status === 'verified') await requestMilestoneCheck(trx, v.guildId, join.inviterId, v.at);
  return after;
}
