import type { Kysely } from 'kysely';
import { addAppealMessage, decideAppeal as storeDecision, lockAppeal, type AppealRecord } from '../../db/appeals/appeals.js';
import { findAppealSettings } from '../../db/appeals/settings.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { appealNotFound, appealNotOpen } from '../core/errors.js';
import type { AppealDecisionInput } from './ids.js';

/** Only appeals waiting for staff can be decided (spec: Ban appeals). */
const DECIDABLE: AppealRecord['status'][] = ['open', 'question'];
export const isAppealDecidable = (status: AppealRecord['status']) => DECIDABLE.includes(status);

export interface AppealVerdict {
  guildId: string;
  number: number;
  verb: 'approve' | 'reject';
  reason: string | null;
  /** The key of an API decision; null for the dashboard's. */
  apiKeyId: number | null;
  /** The staff member who decided (the console user); null through the API, as the spec's decidedBy says. */
  decidedBy: string | null;
  actor: AuditActor;
  requestId: string;
  at: Date;
}

/**
 * Decides an appeal for the API or the console in the caller's transaction: the status stands at once (with the re-appeal cooldown
 * after a rejection), `applying` until its effects ran (appealDecisionOperation). Refused with 404 or 409.
 */
export async function decideAppeal(trx: Kysely<Database>, v: AppealVerdict): Promise<AppealDecisionInput> {
  const appeal = await lockAppeal(trx, v.guildId, v.number);
  if (!appeal) throw appealNotFound();
  if (!isAppealDecidable(appeal.status)) throw appealNotOpen(appeal.status);
  const decision = v.verb === 'approve' ? 'approved' : 'rejected';
  const cooldown = decision === 'rejected' ? (await findAppealSettings(trx, v.guildId)).reappealCooldownSeconds : null;
  await storeDecision(trx, v.guildId, v.number, {
    status: decision,
    reason: v.reason,
    decidedBy: v.decidedBy,
    apiKeyId: v.apiKeyId,
    at: v.at,
    reappealAfter: cooldown === null ? null : new Date(v.at.getTime() + cooldown * 1000),
  });
  if (v.reason) await addAppealMessage(trx, { guildId: v.guildId, number: v.number, author: 'staff', authorId: null, text: v.reason, at: v.at });
  await writeAudit(trx, {
    guildId: v.guildId,
    actor: v.actor,
    action: `appeals.${v.verb}`,
    target: { type: 'appeal', id: String(v.number) },
    requestId: v.requestId,
    data: { userId: appeal.userId, previousStatus: appeal.status, reason: v.reason },
  });
  return { guildId: v.guildId, number: v.number, decision };
}
