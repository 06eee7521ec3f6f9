import type { Kysely } from 'kysely';
import { castVote, findSubmission, lockSubmission, setSubmissionStatus, type SubmissionRecord } from '../../db/applications/submissions.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { ApplicationRefusal } from './applicationRefusal.js';
import { isDecidable } from './decisionRules.js';
import { statusChangeRefusal } from './submissionRules.js';

async function lockOpen(trx: Kysely<Database>, guildId: string, number: number, checkOpen: boolean): Promise<SubmissionRecord> {
  const submission = await lockSubmission(trx, guildId, number);
  if (!submission) throw new ApplicationRefusal('APPLICATION_NOT_FOUND', `Guild ${guildId} has no application submission ${number}.`);
  if (checkOpen && !isDecidable(submission.status)) {
    throw new ApplicationRefusal('APPLICATION_NOT_OPEN', `Submission ${number} is ${submission.status}; only open submissions take votes.`);
  }
  return submission;
}

/** A staff member votes on an open submission in the review channel: one vote per voter, a second one replaces the first. */
export async function voteOnSubmission(
  trx: Kysely<Database>,
  v: { guildId: string; number: number; voterId: string; vote: 'up' | 'down'; at: Date; actor: AuditActor },
): Promise<SubmissionRecord> {
  await lockOpen(trx, v.guildId, v.number, true);
  const votes = await castVote(trx, v);
  await writeAudit(trx, {
    guildId: v.guildId,
    actor: v.actor,
    action: 'applications.vote',
    target: { type: 'application', id: String(v.number) },
    data: { voterId: v.voterId, vote: v.vote, votes },
  });
  return (await findSubmission(trx, v.guildId, v.number))!;
}

/** Staff move an open submission to `interview` or `hold`, or the applicant withdraws it; decided submissions stay as they are. */
export async function changeSubmissionStatus(
  trx: Kysely<Database>,
  c: { guildId: string; number: number; status: 'interview' | 'hold' | 'withdrawn'; at: Date; actor: AuditActor },
): Promise<SubmissionRecord> {
  const submission = await lockOpen(trx, c.guildId, c.number, false);
  const refusal = statusChangeRefusal(submission.status, c.status);
  if (refusal) throw new ApplicationRefusal('APPLICATION_NOT_OPEN', refusal);
  await setSubmissionStatus(trx, c.guildId, c.number, c.status);
  await writeAudit(trx, {
    guildId: c.guildId,
    actor: c.actor,
    action: 'applications.status',
    target: { type: 'application', id: String(c.number) },
    data: { userId: submission.userId, previousStatus: submission.status, status: c.status },
  });
  return (await findSubmission(trx, c.guildId, c.number))!;
}
