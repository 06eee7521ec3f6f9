import { claimInteraction } from '../../../db/platform/interactions.js';
import { openPanelTicket } from '../../../src/tickets/openPanelTicket.js';
import { TicketRefusal } from '../../../src/tickets/ticketRefusal.js';
import type { BotDeps } from '../handler.js';
import type { ButtonPress } from './giveawayEnter.js';

/** The press of a ticket panel's button: a ticket opened (tickets.opened), or the member's open one named. */
export async function openFromPanel(deps: BotDeps, press: ButtonPress, panelId: number): Promise<string | null> {
  const at = deps.clock.now();
  if (press.member.bot) return 'Bots cannot open tickets.';
  try {
    const result = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimInteraction(trx, press.interactionId, press.guildId, at))) return null;
      return openPanelTicket(trx, { guildId: press.guildId, userId: press.userId, panelId, at, actor: { type: 'system' } });
    });
    if (!result) return null;
    return result.opened
      ? `Ticket #${result.ticketNo} is open. Staff will be with you shortly.`
      : `You already have ticket #${result.ticketNo} open from this panel.`;
  } catch (err) {
    if (err instanceof TicketRefusal) return 'Tickets are turned off on this server.';
    throw err;
  }
}
