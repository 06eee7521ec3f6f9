import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { TicketBody, TicketDetailBody, TranscriptBody } from '../../../src/tickets/contract.js';
import { AnswerList } from './answerList.js';
import { DataTable } from './dataTable.js';
import { TextField } from './fields.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { isoTimeOrDash as when, Layout, type Viewer } from './layout.js';
import { ListView, optionsOf } from './listView.js';
import { OlderLink } from './olderLink.js';

export const TICKET_FILTERS = ['active', 'open', 'pending', 'closed'] as const;
export const CLOSE_FIELDS = { reason: 'close-reason' } as const;

/** Names by user id (src/console/memberNames.ts); a user the server does not know is shown by id. */
export type Names = Map<string, string>;
export const nameOf = (names: Names, id: string | null) => (id ? (names.get(id) ?? id) : null);

const ticketsPath = (guildId: string) => `/console/servers/${guildId}/tickets`;
export const ticketPath = (guildId: string, ticketNo: number) => `${ticketsPath(guildId)}/${ticketNo}`;
const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'tickets' as const });

export function TicketsPage(props: { viewer: Viewer; guild: GuildRecord; status: string | undefined; tickets: TicketBody[]; names: Names; olderHref: string | null }) {
  const { guild, names } = props;
  return (
    <Layout title="Tickets" viewer={props.viewer} server={nav(guild)}>
      <p>
        <a href={`${ticketsPath(guild.id)}/panels`}>Ticket panels and settings</a>
      </p>
      <ListView
        filter={{ action: ticketsPath(guild.id), id: 'ticket-status', options: optionsOf(TICKET_FILTERS, { active: 'open or pending' }), current: props.status, any: 'any' }}
        caption="Tickets, newest first"
        columns={['Ticket', 'Opened by', 'Subject', 'Status', 'Opened', 'Closed']}
        rows={props.tickets}
        empty={{
          name: 'tickets',
          text: props.status ? 'No ticket has this status.' : 'No ticket yet. Post a ticket panel (Ticket panels and settings) so members can open one.',
        }}
        row={(t) => (
          <tr data-ticket-no={String(t.ticketNo)}>
            <td>
              <a href={ticketPath(guild.id, t.ticketNo)}>#{t.ticketNo}</a>
            </td>
            <td>{nameOf(names, t.userId)}</td>
            <td>{t.subject ?? '—'}</td>
            <td data-status={t.status}>{t.status}</td>
            <td>{when(t.openedAt)}</td>
            <td>{when(t.closedAt)}</td>
          </tr>
        )}
        older={{ href: props.olderHref, label: 'Older tickets' }}
      />
    </Layout>
  );
}

function TicketFacts({ ticket: t, names }: { ticket: TicketDetailBody; names: Names }) {
  return (
    <dl>
      <dt>Status</dt>
      <dd data-status={t.status}>{t.status}</dd>
      <dt>Opened by</dt>
      <dd>{nameOf(names, t.userId)}</dd>
      <dt>Opened</dt>
      <dd>
        {when(t.openedAt)} {t.source && <span class="muted">(from {t.source === 'context_menu' ? 'a message menu' : `the ${t.source}`})</span>}
      </dd>
      {t.panelTitle && (
        <>
          <dt>Panel</dt>
          <dd>{t.panelTitle}</dd>
        </>
      )}
      <dt>Claimed by</dt>
      <dd>{nameOf(names, t.claimedBy) ?? 'nobody'}</dd>
      <dt>Messages</dt>
      <dd>
        {t.messageCount.user} from the member, {t.messageCount.staff} from staff
      </dd>
      {t.status === 'closed' && (
        <>
          <dt>Closed</dt>
          <dd>
            {when(t.closedAt)} by {nameOf(names, t.closedBy) ?? 'the bot'} ({t.closeType}){t.closeReason && <>: {t.closeReason}</>}
          </dd>
        </>
      )}
    </dl>
  );
}

export function TicketPage(props: { viewer: Viewer; guild: GuildRecord; ticket: TicketDetailBody; names: Names }) {
  const { guild, ticket: t } = props;
  return (
    <Layout title={`Ticket #${t.ticketNo}${t.subject ? `: ${t.subject}` : ''}`} viewer={props.viewer} server={nav(guild)}>
      <TicketFacts ticket={t} names={props.names} />
      {t.closeRequest?.viaApi && t.status === 'closed' && (
        <p class="notice" data-closing>
          The bot is still logging this close, telling the member and removing the ticket's channel.
        </p>
      )}
      {t.answers.length > 0 && <AnswerList answers={t.answers.map((a) => ({ label: a.label, text: a.value }))} />}
      <ul class="actions">
        {t.hasTranscript && (
          <li>
            <a href={`${ticketPath(guild.id, t.ticketNo)}/transcript`}>Read the transcript</a>
          </li>
        )}
        {t.status !== 'closed' && (
          <li>
            <a href={`${ticketPath(guild.id, t.ticketNo)}/close`}>Close this ticket…</a>
          </li>
        )}
        <li>
          <a href={ticketsPath(guild.id)}>Back to the tickets</a>
        </li>
      </ul>
    </Layout>
  );
}

/** The confirmation before a close: the ticket's channel goes and the member is told, with the reason. */
export function CloseTicketPage(props: { viewer: Viewer; guild: GuildRecord; ticket: TicketDetailBody; names: Names; form?: FormState }) {
  const { guild, ticket: t } = props;
  const action = `${ticketPath(guild.id, t.ticketNo)}/close`;
  return (
    <Layout title={`Close ticket #${t.ticketNo}?`} viewer={props.viewer} server={nav(guild)} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <p>
        The ticket of {nameOf(props.names, t.userId)} is closed at once: its transcript is saved (when this server keeps transcripts), the close is
        logged, the member gets a direct message with your reason, and the ticket's channel is deleted (a thread is archived). This cannot be
        undone.
      </p>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <TextField
          rows={4}
          name={CLOSE_FIELDS.reason}
          label="Reason (optional)"
          hint="Shown in the log and in the direct message to the member; up to 1,000 characters."
          value={props.form?.values.get(CLOSE_FIELDS.reason) ?? ''}
          maxLength={1000}
          problem={props.form?.problem}
        />
        <button type="submit" class="danger">
          Close the ticket
        </button>{' '}
        <a href={ticketPath(guild.id, t.ticketNo)}>Cancel</a>
      </form>
    </Layout>
  );
}

export function TranscriptPage(props: { viewer: Viewer; guild: GuildRecord; transcript: TranscriptBody; names: Names; laterHref: string | null }) {
  const { guild, transcript: tr, names } = props;
  return (
    <Layout title={`Transcript of ticket #${tr.ticketNo}`} viewer={props.viewer} server={nav(guild)}>
      <p>
        {tr.totalMessages} messages, saved {when(tr.generatedAt)}.{' '}
        {!tr.messageContent && <strong>The bot could not read message content then: other members' text may be empty.</strong>}
      </p>
      <DataTable
        caption="Messages, oldest first"
        columns={['When', 'Who', 'Message']}
        rows={tr.messages}
        empty={{ name: 'transcript', text: 'Nobody wrote in this ticket.' }}
        row={(m) => (
          <tr data-message-id={m.id}>
            <td>{when(m.createdAt)}</td>
            <td>{m.system ? 'system' : (nameOf(names, m.authorId) ?? 'unknown')}</td>
            <td>
              {m.content}
              {m.attachments.length > 0 && <span class="muted"> (attached: {m.attachments.map((a) => a.name).join(', ')})</span>}
            </td>
          </tr>
        )}
      />
      <OlderLink href={props.laterHref} label="Later messages" />
      <p>
        <a href={ticketPath(guild.id, tr.ticketNo)}>Back to ticket #{tr.ticketNo}</a>
      </p>
    </Layout>
  );
}
