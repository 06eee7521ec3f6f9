import { type Kysely, type Selectable } from 'kysely';
import type { Database, TicketsTable } from '../schema.js';

type Db = Kysely<Database>;
type TicketRow = Selectable<TicketsTable>;

export type TicketStatus = TicketsTable['status'];
export type TicketSource = NonNullable<TicketsTable['source']>;
export type CloseType = NonNullable<TicketsTable['close_type']>;

export interface TicketAnswer {
  fieldId: string | null;
  label: string;
  value: string;
}

export interface TicketMember {
  targetId: string;
  type: 'user' | 'role';
}

export interface CloseRequest {
  reason: string | null;
  closeAt: string | null;
  viaApi: boolean;
  /** Who asked and when (absent on requests stored before they were kept; not shown by the API). */
  requestedBy?: string;
  requestedAt?: string;
}

export interface TicketRecord {
  guildId: string;
  ticketNo: number;
  status: TicketStatus;
  userId: string;
  panelId: number | null;
  panelTitle: string | null;
  subject: string | null;
  source: TicketSource | null;
  isThread: boolean;
  channelId: string | null;
  claimedBy: string | null;
  openedAt: Date;
  lastMessageAt: Date | null;
  firstResponseAt: Date | null;
  firstResponseBy: string | null;
  userMessages: number;
  staffMessages: number;
  rating: number | null;
  answers: TicketAnswer[];
  members: TicketMember[];
  closeRequest: CloseRequest | null;
  closedAt: Date | null;
  closedBy: string | null;
  closeReason: string | null;
  closeType: CloseType | null;
  transcriptGeneratedAt: Date | null;
  transcriptMessageContent: boolean | null;
  transcriptTotal: number | null;
  transcriptUsers: Record<string, { messages: number }> | null;
  /** True from an API close until its workflow applied it on the platform. */
  closeApplying: boolean;
  closeWorkflowStartedAt: Date | null;
  /** The platform effects of an API close that failed; null until the close workflow finished. */
  closeFailedActions: FailedTicketCloseAction[] | null;
}

/** A platform effect of an API close that failed: `log`, `dm` or `channel`, with its error code. */
export interface FailedTicketCloseAction {
  type: 'log' | 'dm' | 'channel';
  error: string;
}

/** What opening a ticket stores; the rest of the record starts empty (open, unclaimed, no messages). */
export type NewTicket = Pick<
  TicketRecord,
  'guildId' | 'ticketNo' | 'userId' | 'panelId' | 'panelTitle' | 'subject' | 'source' | 'isThread' | 'channelId' | 'answers' | 'members' | 'openedAt'
>;

/** The next ticket number of a server; the settings row stays locked until the caller's transaction ends. */
export async function nextTicketNo(trx: Db, guildId: string): Promise<number> {
  const row = await trx
    .insertInto('ticket_settings')
    .values({ guild_id: guildId, last_ticket_no: 1 })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet((eb) => ({ last_ticket_no: eb('ticket_settings.last_ticket_no', '+', 1) })))
    .returning('last_ticket_no')
    .executeTakeFirstOrThrow();
  return row.last_ticket_no;
}

export async function insertTicket(trx: Db, t: NewTicket): Promise<void> {
  await trx
    .insertInto('tickets')
    .values({
      guild_id: t.guildId,
      ticket_no: t.ticketNo,
      status: 'open',
      user_id: t.userId,
      panel_id: t.panelId,
      panel_title: t.panelTitle,
      subject: t.subject,
      source: t.source,
      is_thread: t.isThread,
      channel_id: t.channelId,
      claimed_by: null,
      opened_at: t.openedAt,
      last_message_at: null,
      first_response_at: null,
      first_response_by: null,
      rating: null,
      answers: JSON.stringify(t.answers),
      members: JSON.stringify(t.members),
      close_request: null,
      closed_at: null,
      closed_by: null,
      close_reason: null,
      close_type: null,
      transcript_generated_at: null,
      transcript_message_content: null,
      transcript_total: null,
      transcript_users: null,
    })
    .execute();
}

export async function findTicket(db: Db, guildId: string, ticketNo: number): Promise<TicketRecord | undefined> {
  const row = await db.selectFrom('tickets').selectAll().where('guild_id', '=', guildId).where('ticket_no', '=', ticketNo).executeTakeFirst();
  return row && toTicketRecord(row);
}

/** The ticket, locked until the caller's transaction ends: a message and a close on one ticket run one after the other. */
export async function lockTicket(trx: Db, guildId: string, ticketNo: number): Promise<TicketRecord | undefined> {
  const row = await trx
    .selectFrom('tickets')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('ticket_no', '=', ticketNo)
    .forUpdate()
    .executeTakeFirst();
  return row && toTicketRecord(row);
}

const STATUS_FILTER: Record<TicketStatus | 'active', TicketStatus[]> = {
  open: ['open'],
  pending: ['pending'],
  closed: ['closed'],
  active: ['open', 'pending'],
};

export async function listTickets(
  db: Db,
  guildId: string,
  f: { status?: TicketStatus | 'active'; panelId?: number; userId?: string; before?: number; limit: number },
): Promise<TicketRecord[]> {
  let q = db.selectFrom('tickets').selectAll().where('guild_id', '=', guildId);
  if (f.status) q = q.where('status', 'in', STATUS_FILTER[f.status]);
  if (f.panelId !== undefined) q = q.where('panel_id', '=', f.panelId);
  if (f.userId) q = q.where('user_id', '=', f.userId);
  if (f.before !== undefined) q = q.where('ticket_no', '<', f.before);
  const rows = await q.orderBy('ticket_no', 'desc').limit(f.limit).execute();
  return rows.map(toTicketRecord);
}

export async function updateTicket(
  trx: Db,
  guildId: string,
  ticketNo: number,
  set: Partial<{
    status: TicketStatus;
    claimedBy: string | null;
    lastMessageAt: Date;
    firstResponseAt: Date;
    firstResponseBy: string;
    userMessages: number;
    staffMessages: number;
    closedAt: Date;
    closedBy: string | null;
    closeReason: string | null;
    closeType: CloseType;
    transcriptGeneratedAt: Date;
    transcriptMessageContent: boolean;
    transcriptTotal: number;
    transcriptUsers: Record<string, { messages: number }>;
    closeApplying: boolean;
    closeRequest: CloseRequest | null;
  }>,
): Promise<void> {
  const columns = {
    status: set.status,
    claimed_by: set.claimedBy,
    last_message_at: set.lastMessageAt,
    first_response_at: set.firstResponseAt,
    first_response_by: set.firstResponseBy,
    user_messages: set.userMessages,
    staff_messages: set.staffMessages,
    closed_at: set.closedAt,
    closed_by: set.closedBy,
    close_reason: set.closeReason,
    close_type: set.closeType,
    transcript_generated_at: set.transcriptGeneratedAt,
    transcript_message_content: set.transcriptMessageContent,
    transcript_total: set.transcriptTotal,
    transcript_users: set.transcriptUsers === undefined ? undefined : JSON.stringify(set.transcriptUsers),
    close_applying: set.closeApplying,
    close_request: set.closeRequest === undefined ? undefined : set.closeRequest && JSON.stringify(set.closeRequest),
  };
  const defined = Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
  await trx.updateTable('tickets').set(defined).where('guild_id', '=', guildId).where('ticket_no', '=', ticketNo).execute();
}

function toTicketRecord(row: TicketRow): TicketRecord {
  return {
    guildId: row.guild_id,
    ticketNo: row.ticket_no,
    status: row.status,
    userId: row.user_id,
    panelId: row.panel_id,
    panelTitle: row.panel_title,
    subject: row.subject,
    source: row.source,
    isThread: row.is_thread,
    channelId: row.channel_id,
    claimedBy: row.claimed_by,
    openedAt: row.opened_at,
    lastMessageAt: row.last_message_at,
    firstResponseAt: row.first_response_at,
    firstResponseBy: row.first_response_by,
    userMessages: row.user_messages,
    staffMessages: row.staff_messages,
    rating: row.rating,
    answers: row.answers as TicketAnswer[],
    members: row.members as TicketMember[],
    closeRequest: (row.close_request as CloseRequest | null) ?? null,
    closedAt: row.closed_at,
    closedBy: row.closed_by,
    closeReason: row.close_reason,
    closeType: row.close_type,
    transcriptGeneratedAt: row.transcript_generated_at,
    transcriptMessageContent: row.transcript_message_content,
    transcriptTotal: row.transcript_total,
    transcriptUsers: (row.transcript_users as Record<string, { messages: number }> | null) ?? null,
    closeApplying: row.close_applying,
    closeWorkflowStartedAt: row.close_workflow_started_at,
    closeFailedActions: (row.close_failed_actions as FailedTicketCloseAction[] | null) ?? null,
  };
}
