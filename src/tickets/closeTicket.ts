import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { countTicketMessagesByAuthor } from '../../db/tickets/messages.js';
import { lockTicket, updateTicket, type CloseType } from '../../db/tickets/tickets.js';
import { findTicketSettings } from '../../db/tickets/closes.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { TicketRefusal } from './ticketRefusal.js';

export interface TicketClosing {
  guildId: string;
  ticketNo: number;
  /** The staff member who closed it; null when the bot did. */
  closedBy: string | null;
  closeType: CloseType;
  reason: string | null;
  /** Whether the bot could read message content (Transcript.messageContent). */
  messageContent: boolean;
  at: Date;
  actor: AuditActor;
  requestId?: string;
  /** An API close: its platform side (log, DM, channel) is still to be applied by the ticket-close workflow. */
  applying?: boolean;
}

/**
 * Closes an open or pending ticket in the caller's transaction: the transcript is saved when the server's
 * transcripts are on (its per-author counts computed once, here), then the audit row and `tickets.closed`.
 */
export async function closeTicket(trx: Kysely<Database>, c: TicketClosing): Promise<{ hasTranscript: boolean; events: OutboxEvent[] }> {
  const ticket = await lockTicket(trx, c.guildId, c.ticketNo);
  if (!ticket) throw new TicketRefusal('TICKET_NOT_FOUND', `Guild ${c.guildId} has no ticket ${c.ticketNo}.`);
  if (ticket.status === 'closed') throw new TicketRefusal('TICKET_CLOSED', `Ticket ${c.ticketNo} is already closed.`);
  const { transcripts } = await findTicketSettings(trx, c.guildId);
  const transcript = transcripts ? await countTicketMessagesByAuthor(trx, c.guildId, c.ticketNo) : null;
  await updateTicket(trx, c.guildId, c.ticketNo, {
    status: 'closed',
    closedAt: c.at,
    closedBy: c.closedBy,
    closeReason: c.reason,
    closeType: c.closeType,
    // A close request is over once the ticket is closed, whoever closed it.
    closeRequest: null,
    ...(c.applying ? { closeApplying: true } : {}),
    ...(transcript
      ? { transcriptGeneratedAt: c.at, transcriptMessageContent: c.messageContent, transcriptTotal: transcript.total, transcriptUsers: transcript.users }
      : {}),
  });
  await writeAudit(trx, {
    guildId: c.guildId,
    actor: c.actor,
    action: 'tickets.close',
    target: { type: 'ticket', id: String(c.ticketNo) },
    ...(c.requestId ? { requestId: c.requestId } : {}),
    data: { userId: ticket.userId, previousStatus: ticket.status, closedBy: c.closedBy, closeType: c.closeType, reason: c.reason },
  });
  const event = await recordEvent(trx, {
    type: 'tickets.closed',
    guildId: c.guildId,
    createdAt: c.at,
    data: {
      ticketNo: c.ticketNo,
      userId: ticket.userId,
      closedBy: c.closedBy,
      closeReason: c.reason,
      closeType: c.closeType,
      hasTranscript: transcript !== null,
      closedAt: c.at.toISOString(),
    },
  });
  return { hasTranscript: transcript !== null, events: [event] };
}
