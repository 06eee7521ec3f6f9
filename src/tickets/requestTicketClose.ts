import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { lockTicket, updateTicket, type CloseRequest } from '../../db/tickets/tickets.js';
import { TicketRefusal } from './ticketRefusal.js';

export interface TicketCloseRequesting {
  guildId: string;
  ticketNo: number;
  /** The staff member asking the opener whether the ticket can be closed. */
  requestedBy: string;
  reason: string | null;
  /** When the bot closes the ticket if the opener has not answered; null = it waits for an answer. */
  closeAt: Date | null;
  at: Date;
  actor: AuditActor;
}

/**
 * Staff ask the opener to agree to close an open or pending ticket, in the caller's transaction: the ticket
 * goes `pending` with its `closeRequest` (a new request replaces a pending one) and the audit row. The spec
 * lists no event for it. The opener's answer is answerCloseRequest; a message from them reopens the ticket.
 */
export async function requestTicketClose(trx: Kysely<Database>, r: TicketCloseRequesting): Promise<CloseRequest> {
  const ticket = await lockTicket(trx, r.guildId, r.ticketNo);
  if (!ticket) throw new TicketRefusal('TICKET_NOT_FOUND', `Guild ${r.guildId} has no ticket ${r.ticketNo}.`);
  if (ticket.status === 'closed') throw new TicketRefusal('TICKET_CLOSED', `Ticket ${r.ticketNo} is closed.`);
  const closeRequest: CloseRequest = {
    reason: r.reason,
    closeAt: r.closeAt?.toISOString() ?? null,
    viaApi: false,
    requestedBy: r.requestedBy,
    requestedAt: r.at.toISOString(),
  };
  await updateTicket(trx, r.guildId, r.ticketNo, { status: 'pending', closeRequest });
  await writeAudit(trx, {
    guildId: r.guildId,
    actor: r.actor,
    action: 'tickets.closeRequest',
    target: { type: 'ticket', id: String(r.ticketNo) },
    data: { requestedBy: r.requestedBy, reason: r.reason, closeAt: closeRequest.closeAt, previousStatus: ticket.status },
  });
  return closeRequest;
}
