import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { FormQuestion, FormRecord, FormWithCounts } from '../../../db/applications/forms.js';
import { QUESTION_TYPES } from '../../../src/applications/contract.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { TextField } from './fields.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormProblem, type FormState } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { ListView } from './listView.js';
import { ChannelPicker, RolesPicker } from './pickers.js';

/** The ids (and names) of the form editor's fields; a question's are `question-<i>-label|type|required|id`. */
export const FORM_FIELDS = {
  title: 'form-title',
  description: 'form-description',
  open: 'form-open',
  questions: 'form-questions',
  acceptRoles: 'form-accept-roles',
  removeRoles: 'form-remove-roles',
  reviewChannel: 'form-review-channel',
} as const;
export const questionField = (i: number, part: 'label' | 'type' | 'required' | 'id') => `question-${i}-${part}`;
/** Discord's dialogs show at most 25 questions' worth of rows here; blank rows are how a question is added. */
export const MAX_QUESTIONS = 25;
const TYPE_LABELS: Record<string, string> = { short: 'short answer', paragraph: 'paragraph', choice: 'choice', number: 'number' };

export const formsPath = (guildId: string) => `/console/servers/${guildId}/applications/forms`;
const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'applications' as const });

export function FormsPage(props: { viewer: Viewer; guild: GuildRecord; forms: FormWithCounts[]; laterHref: string | null }) {
  const { guild } = props;
  return (
    <Layout title="Application forms" viewer={props.viewer} server={nav(guild)}>
      <ul class="actions">
        <li>
          <a href={`${formsPath(guild.id)}/new`}>New form</a>
        </li>
        <li>
          <a href={`/console/servers/${guild.id}/applications/panels`}>Application panels</a>
        </li>
        <li>
          <a href={`/console/servers/${guild.id}/applications`}>Submissions</a>
        </li>
      </ul>
      <ListView
        caption="Forms, in the order the panels show them"
        columns={['Form', 'Questions', 'Taking applications', 'Waiting for a decision', 'Submissions']}
        rows={props.forms}
        empty={{ name: 'forms', text: 'No form yet. Create one (New form), then post an application panel so members can apply.' }}
        row={(f) => (
          <tr data-form={String(f.id)}>
            <td>
              <a href={`${formsPath(guild.id)}/${f.id}`}>{f.title}</a>
            </td>
            <td>{f.questions.length}</td>
            <td>{f.open ? 'yes' : 'no'}</td>
            <td>{f.openSubmissions}</td>
            <td>{f.total}</td>
          </tr>
        )}
        older={{ href: props.laterHref, label: 'More forms' }}
      />
    </Layout>
  );
}

function QuestionRows(props: { questions: FormQuestion[]; sent?: URLSearchParams; problem?: FormProblem }) {
  const { sent, problem } = props;
  const rows = Math.min(MAX_QUESTIONS, Math.max(5, props.questions.length + 1));
  return (
    <fieldset id={FORM_FIELDS.questions} {...invalidAttrs(problem, FORM_FIELDS.questions, true)}>
      <legend>Questions</legend>
      <span class="muted hint">In order; a row left blank is no question. Discord's dialog shows five; labels up to 45 characters.</span>
      <FieldMessage problem={problem} field={FORM_FIELDS.questions} />
      {Array.from({ length: rows }, (_, i) => {
        const q = props.questions[i];
        const value = (part: 'label' | 'type' | 'id', fallback: string) => (sent ? (sent.get(questionField(i, part)) ?? '') : fallback);
        const required = sent ? sent.get(questionField(i, 'required')) === 'on' : (q?.required ?? true);
        const type = value('type', q?.type ?? 'short');
        return (
          <div class="question" data-question={String(i)}>
            <input type="hidden" name={questionField(i, 'id')} value={value('id', q?.id ?? '')} />
            <TextField name={questionField(i, 'label')} label={`Question ${i + 1}`} value={value('label', q?.label ?? '')} maxLength={45} problem={problem} />
            <p>
              <label for={questionField(i, 'type')}>Answer of question {i + 1}</label>
              <FieldMessage problem={problem} field={questionField(i, 'type')} />
              <select id={questionField(i, 'type')} name={questionField(i, 'type')} {...invalidAttrs(problem, questionField(i, 'type'))}>
                {QUESTION_TYPES.map((t) => (
                  <option value={t} selected={type === t}>
                    {TYPE_LABELS[t]}
                  </option>
                ))}
              </select>{' '}
              <label class="check">
                <input type="checkbox" name={questionField(i, 'required')} value="on" checked={required} /> required
              </label>
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}

/** A new form, or an existing one's editor: its text, questions, the roles a decision gives and removes, the review channel. */
export function FormEditPage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; form?: FormRecord; state?: FormState }) {
  const { guild, form: f, directory } = props;
  const sent = props.state?.values;
  const problem = props.state?.problem;
  const action = f ? `${formsPath(guild.id)}/${f.id}` : formsPath(guild.id);
  const text = (name: string, fallback: string) => (sent ? (sent.get(name) ?? '') : fallback);
  const roles = (name: string, fallback: string[]) => (sent ? sent.getAll(name) : fallback);
  return (
    <Layout title={f ? `Form: ${f.title}` : 'New application form'} viewer={props.viewer} server={nav(guild)} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <TextField name={FORM_FIELDS.title} label="Title" hint="The apply button's label; up to 80 characters." value={text(FORM_FIELDS.title, f?.title ?? '')} maxLength={80} required problem={problem} />
        <TextField rows={3} name={FORM_FIELDS.description} label="Description" hint="What applicants read first; up to 1,000 characters." value={text(FORM_FIELDS.description, f?.description ?? '')} maxLength={1000} problem={problem} />
        <p>
          <label class="check">
            <input type="checkbox" id={FORM_FIELDS.open} name={FORM_FIELDS.open} value="on" checked={sent ? sent.get(FORM_FIELDS.open) === 'on' : (f?.open ?? true)} /> Taking
            applications
          </label>
        </p>
        <QuestionRows questions={f?.questions ?? []} sent={sent} problem={problem} />
        <RolesPicker name={FORM_FIELDS.acceptRoles} label="Roles given on acceptance" directory={directory} selected={roles(FORM_FIELDS.acceptRoles, f?.acceptRoleIds ?? [])} problem={problem} />
        <RolesPicker name={FORM_FIELDS.removeRoles} label="Roles removed on acceptance" directory={directory} selected={roles(FORM_FIELDS.removeRoles, f?.removeRoleIds ?? [])} problem={problem} />
        <ChannelPicker
          name={FORM_FIELDS.reviewChannel}
          label="Review channel"
          hint="Each submission is posted here for staff to vote and decide."
          directory={directory}
          types={['text', 'announcement']}
          selected={text(FORM_FIELDS.reviewChannel, f?.reviewChannelId ?? '')}
          none="No review channel"
          problem={problem}
        />
        <button type="submit">{f ? 'Save the form' : 'Create the form'}</button> <a href={formsPath(guild.id)}>Cancel</a>
      </form>
    </Layout>
  );
}
