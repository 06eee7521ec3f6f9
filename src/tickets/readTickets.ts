import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listTicketMessages } from '../../db/tickets/messages.js';
import { findTicket, listTickets } from '../../db/tickets/tickets.js';
import { cursorPage } from '../core/cursorPage.js';
import { ticketNotFound, transcriptNotFound } from '../core/errors.js';
import type { z } from '../core/zod.js';
import type { TicketDetailBody, TicketsQuery, TranscriptBody, TranscriptQuery } from './contract.js';
import { toTicketBody, toTicketDetailBody, toTranscriptBody } from './ticketViews.js';

/** Tickets, newest first. */
export async function readTicketPage(db: Kysely<Database>, guildId: string, query: z.output<typeof TicketsQuery>) {
  const page = await cursorPage(query.limit, (limit) => listTickets(db, guildId, { ...query, limit }), (t) => t.ticketNo);
  return { ...page, items: page.items.map(toTicketBody) };
}

/** A ticket with its answers, members and close request; refused with TICKET_NOT_FOUND. */
export async function readTicketDetail(db: Kysely<Database>, guildId: string, ticketNo: number): Promise<TicketDetailBody> {
  const ticket = await findTicket(db, guildId, ticketNo);
  if (!ticket) throw ticketNotFound();
  return toTicketDetailBody(ticket);
}

/**
 * One page of a closed ticket's transcript, oldest message first. Open and pending tickets, and tickets closed while
 * transcripts were off, have none (TRANSCRIPT_NOT_FOUND).
 */
export async function readTranscript(
  db: Kysely<Database>,
  guildId: string,
  ticketNo: number,
  query: z.output<typeof TranscriptQuery>,
): Promise<TranscriptBody> {
  const ticket = await findTicket(db, guildId, ticketNo);
  if (!ticket) throw ticketNotFound();
  if (ticket.status !== 'closed' || ticket.transcriptGeneratedAt === null) throw transcriptNotFound();
  const page = await listTicketMessages(db, guildId, ticket.ticketNo, { after: query.after, limit: query.limit + 1 });
  return toTranscriptBody(ticket, page, query.limit);
}
