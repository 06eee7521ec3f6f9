import type { FormQuestion } from '../../db/applications/forms.js';
import type { SubmissionAnswer } from '../../db/applications/submissions.js';
import { OPEN_STATUSES } from './decisionRules.js';
import type { SubmissionStatus } from './contract.js';

export type SubmitRefusal =
  | { code: 'FORM_CLOSED'; message: string }
  | { code: 'APPLICATION_ALREADY_OPEN'; message: string }
  | { code: 'REAPPLY_COOLDOWN'; message: string }
  | { code: 'INVALID_ANSWERS'; message: string };

/** Whether a form takes submissions at `now`: the toggle is on and `now` lies in its window (opensAt inclusive, closesAt exclusive). */
export function formAccepts(form: { open: boolean; opensAt: Date | null; closesAt: Date | null }, now: Date): boolean {
  if (!form.open) return false;
  if (form.opensAt && now < form.opensAt) return false;
  if (form.closesAt && now >= form.closesAt) return false;
  return true;
}

/**
 * The answers as stored: every given answer names a question of the form (its type and label are taken from
 * the question, in the form's order), every required question is answered with non-blank text.
 */
export function answersFor(questions: FormQuestion[], given: Array<{ id: string; text: string }>): SubmissionAnswer[] | { code: 'INVALID_ANSWERS'; message: string } {
  const byId = new Map(given.map((a) => [a.id, a.text]));
  if (byId.size !== given.length) return { code: 'INVALID_ANSWERS', message: 'Each question can be answered once.' };
  const unknown = given.filter((a) => !questions.some((q) => q.id === a.id)).map((a) => a.id);
  if (unknown.length > 0) return { code: 'INVALID_ANSWERS', message: `The form has no question ${unknown.join(', ')}.` };
  const missing = questions.filter((q) => q.required && !(byId.get(q.id) ?? '').trim()).map((q) => q.id);
  if (missing.length > 0) return { code: 'INVALID_ANSWERS', message: `Required questions are not answered: ${missing.join(', ')}.` };
  return questions.filter((q) => byId.has(q.id)).map((q) => ({ id: q.id, type: q.type, label: q.label, text: byId.get(q.id)! }));
}

/**
 * The bot's rules for one more submission of a user to a form: the form takes submissions; one open
 * submission (pending, interview, hold) per user and form; after a denial not before its re-apply date.
 */
export function submitRefusal(
  form: { open: boolean; opensAt: Date | null; closesAt: Date | null },
  earlier: Array<{ number: number; status: SubmissionStatus; reapplyAfter: Date | null }>,
  now: Date,
): SubmitRefusal | undefined {
  if (!formAccepts(form, now)) return { code: 'FORM_CLOSED', message: 'The form does not take submissions now.' };
  const waiting = earlier.find((s) => OPEN_STATUSES.includes(s.status));
  if (waiting) return { code: 'APPLICATION_ALREADY_OPEN', message: `Submission ${waiting.number} to this form is still open.` };
  const until = earlier.filter((s) => s.status === 'denied' && s.reapplyAfter && s.reapplyAfter > now).map((s) => s.reapplyAfter!.getTime());
  if (until.length > 0) return { code: 'REAPPLY_COOLDOWN', message: `The applicant may apply again after ${new Date(Math.max(...until)).toISOString()}.` };
  return undefined;
}

/** The review states the bot moves an open submission between, and withdrawn (by the applicant): only from an open state. */
export function statusChangeRefusal(from: SubmissionStatus, to: 'interview' | 'hold' | 'withdrawn'): string | undefined {
  if (!OPEN_STATUSES.includes(from)) return `The submission is ${from}; only open submissions (pending, interview or hold) change status.`;
  if (from === to) return `The submission is already ${from}.`;
  return undefined;
}
