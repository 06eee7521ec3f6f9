import { claimInteraction } from '../../../db/platform/interactions.js';
import { giveTicketChannel } from '../../../src/tickets/giveTicketChannel.js';
import { openPanelTicket } from '../../../src/tickets/openPanelTicket.js';
import { TicketRefusal } from '../../../src/tickets/ticketRefusal.js';
import type { BotDeps } from '../handler.js';
import type { ButtonPress } from './giveawayEnter.js';

export const NO_CHANNEL_YET = 'its channel could not be created just now; press the button again in a moment to get it.';

/**
 * The press of a ticket panel's button: a ticket opened, or the member's open one named. Once the ticket is
 * committed, a ticket without a channel gets one (with tickets.opened); a platform that refuses or is down leaves the
 * ticket open without it, and the member's next press tries again.
 */
export async function openFromPanel(deps: BotDeps, press: ButtonPress, panelId: number): Promise<string | null> {
  const at = deps.clock.now();
  if (press.member.bot) return 'Bots cannot open tickets.';
  try {
    const result = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimInteraction(trx, press.interactionId, press.guildId, at))) return null;
      return openPanelTicket(trx, { guildId: press.guildId, userId: press.userId, panelId, at, actor: { type: 'system' } });
    });
    if (!result) return null;
    const { ticketNo } = result;
    const channelId = result.channelId ?? (await giveTicketChannel(deps.db, deps.platform, { guildId: press.guildId, ticketNo, openerId: press.userId, panelId, at }));
    if (result.opened) {
      return channelId
        ? `Ticket #${ticketNo} is open in <#${channelId}>. Staff will be with you shortly.`
        : `Ticket #${ticketNo} is open, but ${NO_CHANNEL_YET}`;
    }
    return channelId
      ? `You already have ticket #${ticketNo} open from this panel: <#${channelId}>.`
      : `You already have ticket #${ticketNo} open from this panel, but ${NO_CHANNEL_YET}`;
  } catch (err) {
    if (err instanceof TicketRefusal) return 'Tickets are turned off on this server.';
    throw err;
  }
}
