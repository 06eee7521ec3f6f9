import type { Kysely } from 'kysely';
import { addBonus, lockInviteCounts } from '../../db/invites/members.js';
import { adjustSeasonMember, lockActiveSeason } from '../../db/invites/seasons.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { MilestoneCheckRecord } from '../../db/invites/milestones.js';
import type { BonusResultBody } from './contract.js';
import { requestMilestoneCheck } from './requestMilestoneCheck.js';

export interface BonusInput {
  guildId: string;
  userId: string;
  amount: number;
  reason: string | null;
  actor: AuditActor;
  requestId?: string;
  at: Date;
}

/**
 * Adds (or, negative, removes) bonus invites inside the caller's transaction: the member's row locked, the
 * new bonus, the active season's share of it and the audit row together. The bonus itself may go below zero; invites never do.
 */
export async function addBonusInvites(
  trx: Kysely<Database>,
  input: BonusInput,
): Promise<{ result: BonusResultBody; milestoneCheck: MilestoneCheckRecord | undefined }> {
  const { guildId, userId, amount, at } = input;
  const before = await lockInviteCounts(trx, guildId, userId, at);
  const after = await addBonus(trx, guildId, userId, amount, at);
  // Counts toward the active season (locked: a season that is ending takes it before or not at all).
  const season = await lockActiveSeason(trx, guildId);
  if (season && amount !== 0) await adjustSeasonMember(trx, season.id, userId, { bonus: amount });
  await writeAudit(trx, {
    guildId,
    actor: input.actor,
    action: 'invites.bonus',
    target: { type: 'member', id: userId },
    requestId: input.requestId,
    data: { amount, reason: input.reason, previousBonus: before.bonus, bonus: after.bonus, seasonId: season?.id ?? null },
  });
  // An addition may reach a milestone: its rewards are granted by workflow after the commit.
  const milestoneCheck = after.invites > before.invites ? await requestMilestoneCheck(trx, guildId, userId, at) : undefined;
  return {
    result: { userId, amount, previousBonus: before.bonus, bonus: after.bonus, invites: after.invites, verified: after.verified },
    milestoneCheck,
  };
}
