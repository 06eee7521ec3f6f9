import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { lockTicket, updateTicket } from '../../db/tickets/tickets.js';
import { TicketRefusal } from './ticketRefusal.js';

/**
 * A staff member claims an open or pending ticket (a later claim takes it over), in the caller's transaction,
 * with its audit row. The spec has no event for a claim.
 */
export async function claimTicket(
  trx: Kysely<Database>,
  c: { guildId: string; ticketNo: number; staffId: string; actor: AuditActor },
): Promise<{ previousClaimedBy: string | null }> {
  const ticket = await lockTicket(trx, c.guildId, c.ticketNo);
  if (!ticket) throw new TicketRefusal('TICKET_NOT_FOUND', `Guild ${c.guildId} has no ticket ${c.ticketNo}.`);
  if (ticket.status === 'closed') throw new TicketRefusal('TICKET_CLOSED', `Ticket ${c.ticketNo} is closed.`);
  await updateTicket(trx, c.guildId, c.ticketNo, { claimedBy: c.staffId });
  await writeAudit(trx, {
    guildId: c.guildId,
    actor: c.actor,
    action: 'tickets.claim',
    target: { type: 'ticket', id: String(c.ticketNo) },
    data: { claimedBy: c.staffId, previousClaimedBy: ticket.claimedBy },
  });
  return { previousClaimedBy: ticket.claimedBy };
}
