import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { AppealFields } from '../../../src/appeals/appealViews.js';
import type { AppealBody, AppealDetailBody } from '../../../src/appeals/contract.js';
import type { ModCaseBody } from '../../../src/moderation/contract.js';
import { DecisionForm, type DecisionLabels } from './decisionForm.js';
import { AnswerList } from './answerList.js';
import { ApplyingNotice, DecidedEntry } from './decisionRecord.js';
import { ErrorSummary, type FormState } from './formParts.js';
import { isoTimeOrDash as when, Layout, type Viewer } from './layout.js';
import { ListView, optionsOf } from './listView.js';
import { OlderLink } from './olderLink.js';
import { nameOf, type Names } from './ticketPages.js';

/** The queue's filters: `open` (the default) is every appeal waiting for a decision, as in the API. */
export const APPEAL_FILTERS = ['open', 'question', 'approved', 'rejected', 'closed', 'all'] as const;
const DECIDABLE = new Set(['open', 'question']);
export const APPEAL_DECISION_FIELDS = { verb: 'appeal-verb', reason: 'appeal-reason' } as const;
/** Approve or reject an open appeal, with the reason the appellant is sent. */
const APPEAL_DECISION: DecisionLabels = {
  fields: { choice: APPEAL_DECISION_FIELDS.verb, reason: APPEAL_DECISION_FIELDS.reason },
  choices: [
    { value: 'approve', label: 'Approve (unban)' },
    { value: 'reject', label: 'Reject' },
  ],
  effects:
    'Approving lifts the ban (with an unban case when Moderation is on) and sends the appellant a single-use invite with your reason; rejecting sends your reason when the appeal settings say so and starts the re-appeal wait.',
  reason: { label: 'Reason', hint: 'Sent to the appellant and added to the conversation; up to 1,000 characters.', required: true },
};

const appealsPath = (guildId: string) => `/console/servers/${guildId}/appeals`;
export const appealPath = (guildId: string, number: number) => `${appealsPath(guildId)}/${number}`;
const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'appeals' as const });
/** Appellants are banned, so rarely members: their tag from the appeal is their name. */
export const appellant = (a: AppealBody) => a.userTag ?? a.userId;
const answerText = (value: unknown) => (typeof value === 'string' ? value : value === null ? '—' : JSON.stringify(value));

export function AppealsPage(props: { viewer: Viewer; guild: GuildRecord; status: string; appeals: AppealBody[]; olderHref: string | null }) {
  const { guild } = props;
  return (
    <Layout title="Appeals" viewer={props.viewer} server={nav(guild)}>
      <ListView
        filter={{
          action: appealsPath(guild.id),
          id: 'appeal-status',
          options: optionsOf(APPEAL_FILTERS, { open: 'waiting for a decision', question: 'waiting for the appellant', all: 'any' }),
          current: props.status,
        }}
        caption="Ban appeals, newest first"
        columns={['Appeal', 'Appellant', 'Status', 'Ban case', 'Filed', 'Last activity']}
        rows={props.appeals}
        empty={{
          name: 'appeals',
          text: props.status === 'open' ? 'No appeal is waiting for a decision. A member banned while Appeals is on gets an Appeal button in their ban message; what they send comes here for you to approve or reject. For decided appeals, choose another status above.' : 'No appeal has this status.',
        }}
        row={(a) => (
          <tr data-appeal={String(a.number)}>
            <td>
              <a href={appealPath(guild.id, a.number)}>#{a.number}</a>
            </td>
            <td>{appellant(a)}</td>
            <td data-status={a.status}>{a.status}</td>
            <td>{a.banCaseNumber === null ? '—' : `#${a.banCaseNumber}`}</td>
            <td>{when(a.createdAt)}</td>
            <td>{when(a.lastActivityAt)}</td>
          </tr>
        )}
        older={{ href: props.olderHref, label: 'Older appeals' }}
      />
    </Layout>
  );
}

function BanCase(props: { banCase: ModCaseBody | null; names: Names; number: number | null; banReason: string | null }) {
  const c = props.banCase;
  if (!c) return <p data-ban-case="none">{props.number === null ? 'No moderation case is linked to this ban' : `Case #${props.number} was deleted`}{props.banReason && <>; the ban's reason: {props.banReason}</>}.</p>;
  return (
    <dl data-ban-case={String(c.number)}>
      <dt>Case</dt>
      <dd>#{c.number}</dd>
      <dt>Action</dt>
      <dd>{c.action}</dd>
      <dt>Reason</dt>
      <dd>{c.reason ?? '—'}</dd>
      <dt>Moderator</dt>
      <dd>{nameOf(props.names, c.moderatorId)}</dd>
      <dt>Recorded</dt>
      <dd>{when(c.createdAt)}</dd>
    </dl>
  );
}

/** One page of the conversation: the latest messages first, each page in reading order, the earlier ones linked above it. */
export interface ConversationPage {
  messages: AppealDetailBody['messages'];
  earlierHref: string | null;
}

function Conversation(props: { appeal: AppealFields; page: ConversationPage; names: Names }) {
  const { appeal: a, page, names } = props;
  return (
    <>
      <h2>Conversation</h2>
      <OlderLink href={page.earlierHref} label="Earlier messages" />
      {page.messages.length === 0 ? (
        <p class="muted">No message yet.</p>
      ) : (
        <ol class="conversation">
          {page.messages.map((m) => (
            <li>
              <strong>{m.author === 'user' ? appellant(a) : m.authorId ? nameOf(names, m.authorId) : 'Staff'}</strong> ({when(m.createdAt)}): {m.text}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

export function AppealPage(props: { viewer: Viewer; guild: GuildRecord; appeal: AppealFields; conversation: ConversationPage; banCase: ModCaseBody | null; names: Names; form?: FormState }) {
  const { guild, appeal: a, names } = props;
  return (
    <Layout title={`Appeal #${a.number}`} viewer={props.viewer} server={nav(guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <dl>
        <dt>Appellant</dt>
        <dd>{appellant(a)}</dd>
        <dt>Status</dt>
        <dd data-status={a.status}>{a.status}</dd>
        <dt>Filed</dt>
        <dd>{when(a.createdAt)}</dd>
        <DecidedEntry decidedAt={a.decidedAt} decidedBy={a.decidedBy} reason={a.reason} names={names} />
      </dl>
      <ApplyingNotice applying={a.applying} effects="unban, invite, direct message" />
      {a.failedAction && (
        <p class="notice warning" data-failed-action>
          This step of the decision failed; the decision stands: {a.failedAction.type}.
        </p>
      )}
      <h2>The ban</h2>
      <BanCase banCase={props.banCase} names={names} number={a.banCaseNumber} banReason={a.banReason} />
      <AnswerList answers={a.answers.map((q) => ({ label: q.label, text: answerText(q.value) }))} />
      <Conversation appeal={a} page={props.conversation} names={names} />
      {DECIDABLE.has(a.status) && <DecisionForm viewer={props.viewer} action={`${appealPath(guild.id, a.number)}/decision`} labels={APPEAL_DECISION} form={props.form} />}
      <p>
        <a href={appealsPath(guild.id)}>Back to the appeals</a>
      </p>
    </Layout>
  );
}
