import type { Kysely } from 'kysely';
import { findInviteCounts } from '../../db/invites/members.js';
import { hasUngrantedMilestone, insertMilestoneCheck, type MilestoneCheckRecord } from '../../db/invites/milestones.js';
import type { Database } from '../../db/schema.js';

/**
 * After a change that raised a member's invites, in its transaction: a milestone check when the new count reaches a
 * milestone not granted yet (launched after the commit, or by the start relay within seconds); otherwise none.
 */
export async function requestMilestoneCheck(trx: Kysely<Database>, guildId: string, userId: string, at: Date): Promise<MilestoneCheckRecord | undefined> {
  const counts = await findInviteCounts(trx, guildId, userId);
  if (!counts || counts.invites <= 0) return undefined;
  if (!(await hasUngrantedMilestone(trx, guildId, userId, counts.invites))) return undefined;
  return insertMilestoneCheck(trx, guildId, userId, at);
}
