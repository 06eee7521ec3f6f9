import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { setMissingTicketChannel } from '../../db/tickets/ticketChannels.js';
import { PlatformRefusedError, PlatformUnavailableError, type Platform } from '../core/platform.js';

export interface TicketWithoutChannel {
  guildId: string;
  ticketNo: number;
  openerId: string;
}

/** The key of a ticket's channel: one channel per ticket, whichever press or retry asks for it. */
export const ticketChannelKey = (guildId: string, ticketNo: number) => `ticket-channel/${guildId}/${ticketNo}`;

/**
 * Creates a ticket's channel on the platform (seen by the opener and the bot) and stores it on the ticket. Null when
 * the platform refused or did not answer: the ticket stays open without one, and the next call tries again.
 * Panels store no category or staff roles yet, so the channel sits at the top of the server's list.
 */
export async function giveTicketChannel(db: Kysely<Database>, platform: Platform, t: TicketWithoutChannel): Promise<string | null> {
  let channelId: string;
  try {
    channelId = await platform.createTicketChannel(t.guildId, { name: `ticket-${t.ticketNo}`, openerId: t.openerId }, ticketChannelKey(t.guildId, t.ticketNo));
  } catch (err) {
    if (err instanceof PlatformUnavailableError || err instanceof PlatformRefusedError) return null;
    throw err;
  }
  return (await setMissingTicketChannel(db, t.guildId, t.ticketNo, channelId)) ?? null;
}
