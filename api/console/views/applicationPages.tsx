import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { SubmissionBody, SubmissionDetailBody } from '../../../src/applications/contract.js';
import { DataTable } from './dataTable.js';
import { TextArea } from './fields.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { OlderLink } from './olderLink.js';
import { nameOf, type Names } from './ticketPages.js';

export const SUBMISSION_FILTERS = ['open', 'decided', 'pending', 'interview', 'hold', 'accepted', 'denied', 'withdrawn'] as const;
export const DECISION_FIELDS = { decision: 'decision', reason: 'decision-reason' } as const;
const OPEN = new Set(['pending', 'interview', 'hold']);

const applicationsPath = (guildId: string) => `/console/servers/${guildId}/applications`;
export const submissionPath = (guildId: string, number: number) => `${applicationsPath(guildId)}/${number}`;
const when = (iso: string | null) => (iso ? isoTime(new Date(iso)) : '—');
const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'applications' as const });

export function SubmissionsPage(props: { viewer: Viewer; guild: GuildRecord; status: string | undefined; submissions: SubmissionBody[]; names: Names; olderHref: string | null }) {
  const { guild, names } = props;
  return (
    <Layout title="Applications" viewer={props.viewer} server={nav(guild)}>
      <form method="get" action={applicationsPath(guild.id)} class="filters">
        <p>
          <label for="submission-status">Status</label>
          <br />
          <select id="submission-status" name="status">
            <option value="">any</option>
            {SUBMISSION_FILTERS.map((s) => (
              <option value={s} selected={props.status === s}>
                {s === 'open' ? 'waiting for a decision' : s === 'decided' ? 'accepted or denied' : s}
              </option>
            ))}
          </select>
        </p>
        <p>
          <button type="submit">Show</button>
        </p>
      </form>
      <DataTable
        caption="Submissions, newest first"
        columns={['Submission', 'Applicant', 'Form', 'Status', 'Votes', 'Submitted']}
        rows={props.submissions}
        empty={{ name: 'submissions', text: props.status ? 'No submission has this status.' : 'No submission yet. Members apply through an application panel the bot posted.' }}
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
      />
      <OlderLink href={props.olderHref} label="Older submissions" />
    </Layout>
  );
}

function DecisionForm(props: { viewer: Viewer; guild: GuildRecord; submission: SubmissionDetailBody; form?: FormState }) {
  const action = `${submissionPath(props.guild.id, props.submission.number)}/decision`;
  const problem = props.form?.problem;
  const picked = props.form?.values.get(DECISION_FIELDS.decision);
  return (
    <form method="post" action={action} class="card">
      <h2>Decide</h2>
      <p>
        Accepting gives and removes the form's roles, sends the applicant a direct message with your reason and announces it; denying sends the
        direct message and starts the form's re-apply wait. The decision cannot be changed afterwards.
      </p>
      <FormFields viewer={props.viewer} action={action} />
      <fieldset id={DECISION_FIELDS.decision} {...invalidAttrs(problem, DECISION_FIELDS.decision, true)}>
        <legend>Decision</legend>
        <FieldMessage problem={problem} field={DECISION_FIELDS.decision} />
        <label class="check">
          <input type="radio" name={DECISION_FIELDS.decision} value="accepted" checked={picked === 'accepted'} /> Accept
        </label>
        <label class="check">
          <input type="radio" name={DECISION_FIELDS.decision} value="denied" checked={picked === 'denied'} /> Deny
        </label>
      </fieldset>
      <TextArea
        name={DECISION_FIELDS.reason}
        label="Reason (optional)"
        hint="Sent to the applicant and shown in the review; up to 1,000 characters."
        value={props.form?.values.get(DECISION_FIELDS.reason) ?? ''}
        maxLength={1000}
        problem={problem}
      />
      <button type="submit">Record the decision</button>
    </form>
  );
}

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
        {s.decidedAt && (
          <>
            <dt>Decided</dt>
            <dd>
              {when(s.decidedAt)} {s.decidedBy ? `by ${nameOf(names, s.decidedBy)}` : 'through the API or by the bot'}
              {s.reason && <>: {s.reason}</>}
            </dd>
          </>
        )}
      </dl>
      {s.applying && (
        <p class="notice" data-applying>
          The bot is still applying the decision (roles, direct message, announcement, review).
        </p>
      )}
      {s.failedActions.length > 0 && (
        <p class="notice warning" data-failed-actions>
          These effects of the decision failed; the decision stands: {s.failedActions.map((f) => f.type).join(', ')}.
        </p>
      )}
      <h2>Answers</h2>
      <dl>
        {s.answers.map((a) => (
          <>
            <dt>{a.label}</dt>
            <dd>{a.text}</dd>
          </>
        ))}
      </dl>
      {OPEN.has(s.status) && <DecisionForm viewer={props.viewer} guild={guild} submission={s} form={props.form} />}
      <p>
        <a href={applicationsPath(guild.id)}>Back to the applications</a>
      </p>
    </Layout>
  );
}
