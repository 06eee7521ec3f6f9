import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { insertTicketMessage, type TicketMessageRecord } from '../../db/tickets/messages.js';
import { lockTicket, updateTicket } from '../../db/tickets/tickets.js';
import { messageSide } from './messageSide.js';
import { TicketRefusal } from './ticketRefusal.js';

/**
 * A message was posted in a ticket's channel or thread, in the caller's transaction: stored for the
 * transcript, counted for its side (messageSide.ts), the first staff message recorded as the first
 * response. The same message id twice is stored and counted once. Closed tickets take no messages; a message
 * of the opener in a `pending` ticket turns down the close request (open again, closeRequest cleared).
 */
export async function addTicketMessage(
  trx: Kysely<Database>,
  m: { guildId: string; ticketNo: number; message: TicketMessageRecord },
): Promise<{ stored: boolean; side: 'user' | 'staff' | null; reopened: boolean }> {
  const ticket = await lockTicket(trx, m.guildId, m.ticketNo);
  if (!ticket) throw new TicketRefusal('TICKET_NOT_FOUND', `Guild ${m.guildId} has no ticket ${m.ticketNo}.`);
  if (ticket.status === 'closed') throw new TicketRefusal('TICKET_CLOSED', `Ticket ${m.ticketNo} is closed.`);
  const side = messageSide(ticket, m.message);
  const stored = await insertTicketMessage(trx, m.guildId, m.ticketNo, m.message);
  if (!stored) return { stored, side, reopened: false };
  // The opener writing again while a close request waits means they still need help: the ticket is open again.
  const reopened = ticket.status === 'pending' && !m.message.system && m.message.authorId === ticket.userId;
  const at = m.message.createdAt;
  await updateTicket(trx, m.guildId, m.ticketNo, {
    lastMessageAt: ticket.lastMessageAt && ticket.lastMessageAt > at ? ticket.lastMessageAt : at,
    ...(side === 'user' ? { userMessages: ticket.userMessages + 1 } : {}),
    ...(side === 'staff' ? { staffMessages: ticket.staffMessages + 1 } : {}),
    ...(side === 'staff' && ticket.firstResponseAt === null ? { firstResponseAt: at, firstResponseBy: m.message.authorId! } : {}),
    ...(reopened ? { status: 'open' as const, closeRequest: null } : {}),
  });
  return { stored, side, reopened };
}
