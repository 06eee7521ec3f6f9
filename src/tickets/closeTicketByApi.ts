import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AuditActor } from '../../db/shared/audit.js';
import { lockTicket } from '../../db/tickets/tickets.js';
import { ticketAlreadyClosed, ticketNotFound } from '../core/errors.js';
import { closeTicket } from './closeTicket.js';
import type { TicketCloseInput } from './ids.js';

export interface ApiTicketClosing {
  guildId: string;
  ticketNo: number;
  reason: string | null;
  actor: AuditActor;
  requestId: string;
  at: Date;
}

/**
 * Closes an open or pending ticket for the API in the caller's transaction: status `closed`, closedBy null,
 * closeType `manual`, the transcript saved, the audit row and `tickets.closed`, all at once (closeTicket);
 * the platform side follows in ticketCloseOperation. Refused with 404 TICKET_NOT_FOUND or 409 TICKET_ALREADY_CLOSED.
 */
export async function closeTicketByApi(trx: Kysely<Database>, c: ApiTicketClosing): Promise<TicketCloseInput> {
  const ticket = await lockTicket(trx, c.guildId, c.ticketNo);
  if (!ticket) throw ticketNotFound();
  if (ticket.status === 'closed') throw ticketAlreadyClosed();
  await closeTicket(trx, {
    guildId: c.guildId,
    ticketNo: c.ticketNo,
    closedBy: null,
    closeType: 'manual',
    reason: c.reason,
    messageContent: true,
    at: c.at,
    actor: c.actor,
    requestId: c.requestId,
    applying: true,
  });
  return { guildId: c.guildId, ticketNo: c.ticketNo };
}
