import type { Kysely } from 'kysely';
import { adjustInviter, insertInviteJoin, lockInviteJoin, type InviteJoinRecord } from '../../db/invites/joins.js';
import type { Database } from '../../db/schema.js';
import { applyBucket } from './applyBucket.js';
import { InviteRefusal } from './inviteRefusal.js';
import { nextBucket } from './joinBuckets.js';
import { requestMilestoneCheck } from './requestMilestoneCheck.js';

export interface InviteCredit {
  guildId: string;
  userId: string;
  inviterId: string;
  inviteCode: string | null;
  at: Date;
}

export interface InviteCreditResult {
  join: InviteJoinRecord;
  /** `new`: a pending bucket for the inviter; `reactivated`: a rejoin back to the status it left from; `unchanged`. */
  attribution: 'new' | 'reactivated' | 'unchanged';
}

/** Nobody joins through their own invite: refused before the member joins. */
export function refuseSelfInvite(c: Pick<InviteCredit, 'userId' | 'inviterId'>): void {
  if (c.inviterId === c.userId) throw new InviteRefusal('SELF_INVITE', `User ${c.userId} cannot join through their own invite.`);
}

/**
 * The inviter's side of a join through their code, in the transaction of the member's join: a pending bucket for a
 * first join; a rejoin reactivates the bucket the member left from, still credited to its first inviter.
 */
export async function creditInviteJoin(trx: Kysely<Database>, c: InviteCredit): Promise<InviteCreditResult> {
  const existing = await lockInviteJoin(trx, c.guildId, c.userId);
  if (!existing) {
    const join = { guildId: c.guildId, userId: c.userId, inviterId: c.inviterId, inviteCode: c.inviteCode, joinedAt: c.at };
    await insertInviteJoin(trx, join);
    await adjustInviter(trx, c.guildId, c.inviterId, nextBucket(undefined, 'join')!.delta, c.at);
    return { join: { ...join, status: 'pending', leftFrom: null, seasonId: null }, attribution: 'new' };
  }
  const t = nextBucket(existing, 'join');
  if (!t) return { join: existing, attribution: 'unchanged' };
  const join = await applyBucket(trx, existing, t, c.at);
  // A verified join back in the server raises the inviter's invites again (the start relay launches the check).
  if (join.status === 'verified') await requestMilestoneCheck(trx, c.guildId, join.inviterId, c.at);
  return { join, attribution: 'reactivated' };
}
