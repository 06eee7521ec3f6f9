import type { Kysely } from 'kysely';
import { adjustInviter, updateInviteJoin, type InviteJoinRecord } from '../../db/invites/joins.js';
import { adjustSeasonMember, lockActiveSeason } from '../../db/invites/seasons.js';
import type { Database } from '../../db/schema.js';
import type { BucketTransition } from './joinBuckets.js';

/**
 * Writes a bucket transition: the join's status, the inviter's counters and, for a verified join, the active
 * season's count (a join counts toward the season it was verified in, and only while that season is active).
 */
export async function applyBucket(trx: Kysely<Database>, join: InviteJoinRecord, t: BucketTransition, at: Date): Promise<InviteJoinRecord> {
  const season = await lockActiveSeason(trx, join.guildId);
  let seasonId = join.seasonId;
  if (t.status === 'verified' && join.status === 'pending') seasonId = season?.id ?? null;
  const verifiedDelta = t.delta.verified ?? 0;
  await updateInviteJoin(trx, join.guildId, join.userId, { status: t.status, leftFrom: t.leftFrom, seasonId, at });
  // All-time counts before the season's, as a bonus does: every change takes the rows (and the per-count tallies
  // their triggers keep) in the same order, so two changes at once cannot deadlock.
  await adjustInviter(trx, join.guildId, join.inviterId, t.delta, at);
  if (season && verifiedDelta !== 0 && seasonId === season.id) await adjustSeasonMember(trx, season.id, join.inviterId, { verified: verifiedDelta });
  return { ...join, status: t.status, leftFrom: t.leftFrom, seasonId };
}
