import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AuditActor } from '../../db/shared/audit.js';
import { findTicketPanel } from '../../db/tickets/panels.js';
import { listTickets } from '../../db/tickets/tickets.js';
import { openTicket } from './openTicket.js';

export interface PanelTicketOpening {
  guildId: string;
  userId: string;
  panelId: number;
  at: Date;
  actor: AuditActor;
}

export type PanelTicketResult =
  | { opened: true; ticketNo: number; channelId: null }
  | { opened: false; ticketNo: number; channelId: string | null };

/**
 * A member presses a ticket panel's button: a ticket opened as `simulate ticket-open --panel N` opens it, unless
 * they already have an open or pending ticket from that panel (a second press, or a double click, answers that
 * ticket instead of opening another). The ticket's channel is not created here: the caller creates it once this
 * transaction has committed (src/tickets/giveTicketChannel.ts), so no platform call holds the transaction open;
 * `tickets.opened` is recorded with the channel. The panel's title, when it has one, is the
 * ticket's `panelTitle`.
 */
export async function openPanelTicket(trx: Kysely<Database>, o: PanelTicketOpening): Promise<PanelTicketResult> {
  // One member's presses one after the other, so two at once cannot both find no ticket.
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`ticket-panel:${o.guildId}:${o.userId}`}, 0))`.execute(trx);
  const [active] = await listTickets(trx, o.guildId, { status: 'active', panelId: o.panelId, userId: o.userId, limit: 1 });
  if (active) return { opened: false, ticketNo: active.ticketNo, channelId: active.channelId };
  const panel = await findTicketPanel(trx, o.guildId, o.panelId);
  const { ticketNo } = await openTicket(trx, {
    guildId: o.guildId,
    userId: o.userId,
    panel: { id: o.panelId, title: panel?.title ?? null },
    subject: null,
    source: 'panel',
    isThread: false,
    channelId: null,
    channelPending: true,
    answers: [],
    at: o.at,
    actor: o.actor,
  });
  return { opened: true, ticketNo, channelId: null };
}
