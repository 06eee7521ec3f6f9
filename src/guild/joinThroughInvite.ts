import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { creditInviteJoin, refuseSelfInvite, type InviteCreditResult } from '../invites/creditInviteJoin.js';
import { joinMember, type MemberJoin } from './joinMember.js';

export interface InviteJoinInput extends Omit<MemberJoin, 'inviterId' | 'ifMember'> {
  inviterId: string;
}

export interface InviteJoinResult extends InviteCreditResult {
  events: OutboxEvent[];
}

/**
 * Someone joins through an inviter's code: the member join (members.joined) and the inviter's bucket in one
 * transaction. The guild owns the join and tells invites, as it does on a leave, so invites never reaches back.
 */
export async function joinThroughInvite(trx: Kysely<Database>, input: InviteJoinInput): Promise<InviteJoinResult> {
  refuseSelfInvite(input);
  const { events } = await joinMember(trx, { ...input, ifMember: 'refuse' });
  return { ...(await creditInviteJoin(trx, input)), events };
}
