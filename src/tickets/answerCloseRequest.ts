import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { lockTicket, updateTicket } from '../../db/tickets/tickets.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { closeTicket } from './closeTicket.js';
import { TicketRefusal } from './ticketRefusal.js';

/** `accept`: the opener agrees; `deny`: they want it open; `timeout`: the request's closeAt passed unanswered. */
export const CLOSE_REQUEST_ANSWERS = ['accept', 'deny', 'timeout'] as const;
export type CloseRequestAnswer = (typeof CLOSE_REQUEST_ANSWERS)[number];

export interface CloseRequestAnswering {
  guildId: string;
  ticketNo: number;
  answer: CloseRequestAnswer;
  /** Whether the bot could read message content (the transcript's messageContent when it closes). */
  messageContent: boolean;
  at: Date;
  actor: AuditActor;
}

/**
 * The end of a close request, in the caller's transaction. Accepted by the opener: closed with closeType
 * `request` and closedBy the opener; unanswered by its closeAt: closed by the bot (closedBy null), also
 * `request`; both save the transcript and emit `tickets.closed` (closeTicket). Denied: `open` again, the request
 * cleared, with an audit row and no event. Refused unless the ticket is `pending`; `timeout` before closeAt
 * (or without one) is refused with CLOSE_REQUEST_NOT_DUE.
 */
export async function answerCloseRequest(trx: Kysely<Database>, a: CloseRequestAnswering): Promise<{ status: 'open' | 'closed'; events: OutboxEvent[] }> {
  const ticket = await lockTicket(trx, a.guildId, a.ticketNo);
  if (!ticket) throw new TicketRefusal('TICKET_NOT_FOUND', `Guild ${a.guildId} has no ticket ${a.ticketNo}.`);
  if (ticket.status !== 'pending' || !ticket.closeRequest) {
    throw new TicketRefusal('TICKET_NOT_PENDING', `Ticket ${a.ticketNo} has no close request waiting for an answer.`);
  }
  const request = ticket.closeRequest;
  if (a.answer === 'deny') {
    await updateTicket(trx, a.guildId, a.ticketNo, { status: 'open', closeRequest: null });
    await writeAudit(trx, {
      guildId: a.guildId,
      actor: a.actor,
      action: 'tickets.closeRequestDenied',
      target: { type: 'ticket', id: String(a.ticketNo) },
      data: { userId: ticket.userId, requestedBy: request.requestedBy ?? null, reason: request.reason },
    });
    return { status: 'open', events: [] };
  }
  if (a.answer === 'timeout' && (request.closeAt === null || new Date(request.closeAt) > a.at)) {
    const due = request.closeAt ? `is due at ${request.closeAt}` : 'has no close time';
    throw new TicketRefusal('CLOSE_REQUEST_NOT_DUE', `The close request of ticket ${a.ticketNo} ${due}.`);
  }
  const { events } = await closeTicket(trx, {
    guildId: a.guildId,
    ticketNo: a.ticketNo,
    closedBy: a.answer === 'accept' ? ticket.userId : null,
    closeType: 'request',
    reason: request.reason,
    messageContent: a.messageContent,
    at: a.at,
    actor: a.actor,
  });
  return { status: 'closed', events };
}
