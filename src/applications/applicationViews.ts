import type { FormWithCounts } from '../../db/applications/forms.js';
import type { SubmissionRecord } from '../../db/applications/submissions.js';
import type { FormBody, SubmissionBody, SubmissionDetailBody } from './contract.js';

export function toFormBody(f: FormWithCounts): FormBody {
  return {
    id: f.id,
    title: f.title,
    description: f.description,
    open: f.open,
    opensAt: f.opensAt?.toISOString() ?? null,
    closesAt: f.closesAt?.toISOString() ?? null,
    questions: f.questions.map((q) => ({ id: q.id, type: q.type, label: q.label, required: q.required })),
    submissions: { total: f.total, open: f.openSubmissions },
  };
}

export function toSubmissionBody(s: SubmissionRecord): SubmissionBody {
  return {
    number: s.number,
    formId: s.formId,
    formTitle: s.formTitle,
    userId: s.userId,
    status: s.status,
    votes: { up: s.votesUp, down: s.votesDown },
    submittedAt: s.submittedAt.toISOString(),
    decidedAt: s.decidedAt?.toISOString() ?? null,
    decidedBy: s.decidedBy,
    reason: s.reason,
  };
}

export function toSubmissionDetailBody(s: SubmissionRecord): SubmissionDetailBody {
  return {
    ...toSubmissionBody(s),
    answers: s.answers.map((a) => ({ id: a.id, type: a.type, label: a.label, text: a.text })),
    applicant: s.applicant,
    applying: s.applying,
    failedActions: s.failedActions,
  };
}
