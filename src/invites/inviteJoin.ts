import type { Kysely } from 'kysely';
import { adjustInviter, insertInviteJoin, lockInviteJoin, type InviteJoinRecord } from '../../db/invites/joins.js';
import type { Database } from '../../db/schema.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { joinMember, type MemberJoin } from '../guild/joinMember.js';
import { applyBucket } from './applyBucket.js';
import { InviteRefusal } from './inviteRefusal.js';
import { nextBucket } from './joinBuckets.js';
import { requestMilestoneCheck } from './requestMilestoneCheck.js';

export interface InviteJoinInput extends Omit<MemberJoin, 'inviterId' | 'ifMember'> {
  inviterId: string;
}

export interface InviteJoinResult {
  join: InviteJoinRecord;
  /** `new`: a pending bucket for the inviter; `reactivated`: a rejoin back to the status it left from; `unchanged`. */
  attribution: 'new' | 'reactivated' | 'unchanged';
  events: OutboxEvent[];
}

/**
 * Someone joins through an inviter's code: the member join (members.joined) and the inviter's bucket in one
 * transaction. A rejoin reactivates the bucket the member left from, still credited to its first inviter.
 */
export async function inviteJoin(trx: Kysely<Database>, input: InviteJoinInput): Promise<InviteJoinResult> {
  if (input.inviterId === input.userId) throw new InviteRefusal('SELF_INVITE', `User ${input.userId} cannot join through their own invite.`);
  const { events } = await joinMember(trx, { ...input, ifMember: 'refuse' });
  const existing = await lockInviteJoin(trx, input.guildId, input.userId);
  if (!existing) {
    const join = { guildId: input.guildId, userId: input.userId, inviterId: input.inviterId, inviteCode: input.inviteCode, joinedAt: input.at };
    await insertInviteJoin(trx, join);
    await adjustInviter(trx, input.guildId, input.inviterId, nextBucket(undefined, 'join')!.delta, input.at);
    return { join: { ...join, status: 'pending', leftFrom: null, seasonId: null }, attribution: 'new', events };
  }
  const t = nextBucket(existing, 'join');
  if (!t) return { join: existing, attribution: 'unchanged', events };
  const join = await applyBucket(trx, existing, t, input.at);
  // A verified join back in the server raises the inviter's invites again (the start relay launches the check).
  if (join.status === 'verified') await requestMilestoneCheck(trx, input.guildId, join.inviterId, input.at);
  return { join, attribution: 'reactivated', events };
}
