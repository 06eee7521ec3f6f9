import type { Kysely } from 'kysely';
import { findForm } from '../../db/applications/forms.js';
import { lockSubmission, storeSubmissionDecision, type SubmissionStatus } from '../../db/applications/submissions.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { applicationNotFound, applicationNotOpen } from '../core/errors.js';
import type { ApplicationDecisionInput } from './ids.js';
import { isDecidable, reapplyAfter } from './decisionRules.js';

export interface SubmissionVerdict {
  guildId: string;
  number: number;
  decision: 'accepted' | 'denied';
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
 * Decides a submission for the API or the console in the caller's transaction: status, reason and decidedAt stand at once (with the
 * form's re-apply cooldown after a denial), `applying` until its effects ran (applicationDecisionOperation).
 * Refused with 404 APPLICATION_NOT_FOUND or 409 APPLICATION_NOT_OPEN.
 */
export async function decideSubmission(trx: Kysely<Database>, v: SubmissionVerdict): Promise<ApplicationDecisionInput> {
  const submission = await lockSubmission(trx, v.guildId, v.number);
  if (!submission) throw applicationNotFound();
  if (!isDecidable(submission.status)) throw applicationNotOpen(submission.status);
  const form = submission.formId === null ? undefined : await findForm(trx, v.guildId, submission.formId);
  await storeSubmissionDecision(trx, v.guildId, v.number, {
    status: v.decision,
    reason: v.reason,
    decidedBy: v.decidedBy,
    apiKeyId: v.apiKeyId,
    at: v.at,
    reapplyAfter: reapplyAfter(v.decision, v.at, form?.reapplyCooldownSeconds ?? null),
  });
  await writeAudit(trx, {
    guildId: v.guildId,
    actor: v.actor,
    action: 'applications.decide',
    target: { type: 'application', id: String(v.number) },
    requestId: v.requestId,
    data: { userId: submission.userId, decision: v.decision, previousStatus: submission.status satisfies SubmissionStatus, reason: v.reason },
  });
  return { guildId: v.guildId, number: v.number, decision: v.decision };
}
