import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findTicketPanel } from '../../db/tickets/panels.js';
import { setMissingTicketChannel } from '../../db/tickets/ticketChannels.js';
import { findTicket } from '../../db/tickets/tickets.js';
import { PlatformRefusedError, PlatformUnavailableError, type Platform } from '../core/platform.js';
import { recordTicketOpened } from './openTicket.js';

export interface TicketWithoutChannel {
  guildId: string;
  ticketNo: number;
  openerId: string;
  /** The panel it was opened from: where its channel goes (category) and who sees it (staff roles). */
  panelId: number | null;
  /** Now: when the channel came to be, for `tickets.opened`. */
  at: Date;
}

/** The key of a ticket's channel: one channel per ticket, whichever press or retry asks for it. */
export const ticketChannelKey = (guildId: string, ticketNo: number) => `ticket-channel/${guildId}/${ticketNo}`;

/**
 * Creates a ticket's channel on the platform (under its panel's category, seen by the opener, the panel's staff roles
 * and the bot) and stores it on the ticket with `tickets.opened`, which names the channel: the event is recorded by
 * the call that stored it, once. Null when the platform refused or did not answer: the ticket stays open without one
 * (and without its event), and the next call tries again.
 */
export async function giveTicketChannel(db: Kysely<Database>, platform: Platform, t: TicketWithoutChannel): Promise<string | null> {
  const panel = t.panelId === null ? undefined : await findTicketPanel(db, t.guildId, t.panelId);
  let channelId: string;
  try {
    channelId = await platform.createTicketChannel(
      t.guildId,
      { name: `ticket-${t.ticketNo}`, openerId: t.openerId, parentId: panel?.categoryId ?? null, staffRoleIds: panel?.staffRoleIds ?? [] },
      ticketChannelKey(t.guildId, t.ticketNo),
    );
  } catch (err) {
    if (err instanceof PlatformUnavailableError || err instanceof PlatformRefusedError) return null;
    throw err;
  }
  const stored = await db.transaction().execute(async (trx) => {
    const { channelId: now, given } = await setMissingTicketChannel(trx, t.guildId, t.ticketNo, channelId);
    const ticket = given ? await findTicket(trx, t.guildId, t.ticketNo) : undefined;
    if (ticket) await recordTicketOpened(trx, { ...ticket, panel: ticket.panelId === null ? null : { id: ticket.panelId } }, t.at);
    return now;
  });
  return stored ?? null;
}
