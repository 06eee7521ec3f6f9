import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { SubmissionBody, SubmissionDetailBody } from '../../../src/applications/contract.js';
import { DecisionForm, type DecisionLabels } from './decisionForm.js';
import { AnswerList } from './answerList.js';
import { ApplyingNotice, DecidedEntry } from './decisionRecord.js';
import { ErrorSummary, type FormState } from './formParts.js';
import { isoTimeOrDash as when, Layout, type Viewer } from './layout.js';
import { ListView, optionsOf } from './listView.js';
import { nameOf, type Names } from './ticketPages.js';

export const SUBMISSION_FILTERS = ['open', 'decided', 'pending', 'interview', 'hold', 'accepted', 'denied', 'withdrawn'] as const;
export const DECISION_FIELDS = { decision: 'decision', reason: 'decision-reason' } as const;
const OPEN = new Set(['pending', 'interview', 'hold']);

const applicationsPath = (guildId: string) => `/console/servers/${guildId}/applications`;
export const submissionPath = (guildId: string, number: number) => `${applicationsPath(guildId)}/${number}`;
const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'applications' as const });

export function SubmissionsPage(props: { viewer: Viewer; guild: GuildRecord; status: string | undefined; submissions: SubmissionBody[]; names: Names; olderHref: string | null }) {
  const { guild, names } = props;
  return (
    <Layout title="Applications" viewer={props.viewer} server={nav(guild)}>
      <p>
        <a href={`${applicationsPath(guild.id)}/forms`}>Forms</a> · <a href={`${applicationsPath(guild.id)}/panels`}>Panels</a>
      </p>
      <ListView
        filter={{
          action: applicationsPath(guild.id),
          id: 'submission-status',
          options: optionsOf(SUBMISSION_FILTERS, { open: 'waiting for a decision', decided: 'accepted or denied' }),
          current: props.status,
          any: 'any',
        }}
        caption="Submissions, newest first"
        columns={['Submission', 'Applicant', 'Form', 'Status', 'Votes', 'Submitted']}
        rows={props.submissions}
        empty={{ name: 'submissions', text: props.status ? 'No submission has this status.' : 'No submission yet. Members apply with a form posted in a channel: create the form under Forms, then post its panel under Panels.' }}
        row={(s) => (
          <tr data-submission={String(s.number)}>
            <td>
              <a href={submissionPath(guild.id, s.number)}>#{s.number}</a>
            </td>
            <td>{nameOf(names, s.userId)}</td>
            <td>{s.formTitle ?? <span class="muted">(form deleted)</span>}</td>
            <td data-status={s.status}>{s.status}</td>
            <td>
              +{s.votes.up} / −{s.votes.down}
            </td>
            <td>{when(s.submittedAt)}</td>
          </tr>
        )}
        older={{ href: props.olderHref, label: 'Older submissions' }}
      />
    </Layout>
  );
}

/** Accept or deny: the API's decision (roles, direct message, announcement, review). */
const SUBMISSION_DECISION: DecisionLabels = {
  fields: { choice: DECISION_FIELDS.decision, reason: DECISION_FIELDS.reason },
  choices: [
    { value: 'accepted', label: 'Accept' },
    { value: 'denied', label: 'Deny' },
  ],
  effects:
    "Accepting gives and removes the form's roles, sends the applicant a direct message with your reason and announces it; denying sends the direct message and starts the form's re-apply wait.",
  reason: { label: 'Reason (optional)', hint: 'Sent to the applicant and shown in the review; up to 1,000 characters.' },
};

export function SubmissionPage(props: { viewer: Viewer; guild: GuildRecord; submission: SubmissionDetailBody; names: Names; form?: FormState }) {
  const { guild, submission: s, names } = props;
  return (
    <Layout title={`Application #${s.number}`} viewer={props.viewer} server={nav(guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <dl>
        <dt>Applicant</dt>
        <dd>{nameOf(names, s.userId)}</dd>
        <dt>Form</dt>
        <dd>{s.formTitle ?? '(deleted)'}</dd>
        <dt>Status</dt>
        <dd data-status={s.status}>{s.status}</dd>
        <dt>Submitted</dt>
        <dd>{when(s.submittedAt)}</dd>
        <DecidedEntry decidedAt={s.decidedAt} decidedBy={s.decidedBy} reason={s.reason} names={names} />
      </dl>
      <ApplyingNotice applying={s.applying} effects="roles, direct message, announcement, review" />
      {s.failedActions.length > 0 && (
        <p class="notice warning" data-failed-actions>
          These effects of the decision failed; the decision stands: {s.failedActions.map((f) => f.type).join(', ')}.
        </p>
      )}
      <AnswerList answers={s.answers} />
      {OPEN.has(s.status) && <DecisionForm viewer={props.viewer} action={`${submissionPath(guild.id, s.number)}/decision`} labels={SUBMISSION_DECISION} form={props.form} />}
      <p>
        <a href={applicationsPath(guild.id)}>Back to the applications</a>
      </p>
    </Layout>
  );
}
