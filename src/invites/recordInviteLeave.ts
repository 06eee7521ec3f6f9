import type { Kysely } from 'kysely';
import { lockInviteJoin } from '../../db/invites/joins.js';
import type { Database } from '../../db/schema.js';
import { applyBucket } from './applyBucket.js';
import { nextBucket } from './joinBuckets.js';

/** A member left: their pending or verified join moves to the inviter's `left` bucket (a fake join stays fake). */
export async function recordInviteLeave(trx: Kysely<Database>, guildId: string, userId: string, at: Date): Promise<void> {
  const join = await lockInviteJoin(trx, guildId, userId);
  const t = join && nextBucket(join, 'leave');
  if (join && t) await applyBucket(trx, join, t, at);
}
