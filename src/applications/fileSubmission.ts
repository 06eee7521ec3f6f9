import type { Kysely } from 'kysely';
import { insertSubmission, type ApplicantSnapshot, type SubmissionAnswer } from '../../db/applications/submissions.js';
import type { Database } from '../../db/schema.js';
import { recordEvent } from '../events/outbox.js';
import type { OutboxEvent } from '../events/eventTypes.js';

/**
 * Stores a `pending` submission with its `applications.submitted` event in the caller's transaction, without
 * the form's rules (the bot's form checks them first); the demo guild and tests file here directly.
 */
export async function fileSubmission(
  trx: Kysely<Database>,
  s: { guildId: string; form: { id: number; title: string }; userId: string; answers: SubmissionAnswer[]; applicant: ApplicantSnapshot; at: Date },
): Promise<{ number: number; event: OutboxEvent }> {
  const number = await insertSubmission(trx, {
    guildId: s.guildId,
    formId: s.form.id,
    formTitle: s.form.title,
    userId: s.userId,
    answers: s.answers,
    applicant: s.applicant,
    submittedAt: s.at,
  });
  const event = await recordEvent(trx, {
    type: 'applications.submitted',
    guildId: s.guildId,
    createdAt: s.at,
    data: {
      submissionNumber: number,
      formId: s.form.id,
      formTitle: s.form.title,
      userId: s.userId,
      answers: s.answers.map((a) => ({ id: a.id, type: a.type, label: a.label, value: a.text })),
      submittedAt: s.at.toISOString(),
    },
  });
  return { number, event };
}
