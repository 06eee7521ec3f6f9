import type { SubmissionStatus } from './contract.js';

/** The open-type states (spec: Submission transitions): only these can be accepted or denied. */
export const OPEN_STATUSES: readonly SubmissionStatus[] = ['pending', 'interview', 'hold'];

export const isDecidable = (status: SubmissionStatus) => OPEN_STATUSES.includes(status);

/** When a denied applicant may apply to the form again; null after an acceptance or without a form (deleted). */
export function reapplyAfter(decision: 'accepted' | 'denied', at: Date, cooldownSeconds: number | null): Date | null {
  if (decision !== 'denied' || cooldownSeconds === null) return null;
  return new Date(at.getTime() + cooldownSeconds * 1000);
}
