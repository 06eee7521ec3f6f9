import { ApplicationCommandOptionType, ApplicationCommandType } from 'discord-api-types/v10';
import type { TicketAnswer, TicketSource } from '../../../db/tickets/tickets.js';
import { claimInteraction } from '../../../db/platform/interactions.js';
import { giveTicketChannel } from '../../../src/tickets/giveTicketChannel.js';
import { openTicket } from '../../../src/tickets/openTicket.js';
import type { BotCommand, CommandUse } from './command.js';

/** The subject's limit, as `simulate ticket-open --subject` takes it. */
const MAX_SUBJECT = 200;
/** How much of a reported message's text the ticket keeps in its answers. */
const MAX_QUOTE = 1_000;

/**
 * A ticket opened by the invoker, as a panel's button opens one, then its channel once the ticket is committed
 * (tickets.opened is recorded with the channel); a platform that refuses or is down leaves the ticket open without one.
 */
async function openFor(use: CommandUse, ticket: { source: TicketSource; subject: string | null; answers: TicketAnswer[] }): Promise<string | null> {
  const { deps, guildId, userId } = use;
  if (use.member.bot) return 'Bots cannot open tickets.';
  const at = deps.clock.now();
  const opened = await deps.db.transaction().execute(async (trx) => {
    if (!(await claimInteraction(trx, use.interactionId, guildId, at))) return null;
    return openTicket(trx, { guildId, userId, panel: null, isThread: false, channelId: null, channelPending: true, at, actor: { type: 'member', userId }, ...ticket });
  });
  if (!opened) return null;
  const channelId = await giveTicketChannel(deps.db, deps.platform, { guildId, ticketNo: opened.ticketNo, openerId: userId, panelId: null, at });
  return channelId
    ? `Ticket #${opened.ticketNo} is open in <#${channelId}>. Staff will be with you shortly.`
    : `Ticket #${opened.ticketNo} is open, but its channel could not be created just now; the staff see the ticket and will reach you.`;
}

/** `/ticket [subject]`: a ticket with source `command`. */
export const ticketCommand: BotCommand = {
  definition: {
    name: 'ticket',
    description: 'Open a private ticket with the staff',
    options: [{ type: ApplicationCommandOptionType.String, name: 'subject', description: 'What it is about', max_length: MAX_SUBJECT }],
  },
  feature: 'tickets',
  claimsItself: true,
  run: (use) => openFor(use, { source: 'command', subject: use.options.string('subject')?.trim() || null, answers: [] }),
};

/** The message context menu: a ticket with source `context_menu`, the message's link in its subject and answers. */
export const ticketAboutMessageCommand: BotCommand = {
  definition: { type: ApplicationCommandType.Message, name: 'Open a ticket about this message' },
  feature: 'tickets',
  claimsItself: true,
  run(use) {
    const m = use.targetMessage!;
    const link = `https://discord.com/channels/${use.guildId}/${m.channelId}/${m.id}`;
    return openFor(use, {
      source: 'context_menu',
      subject: `About a message: ${link}`.slice(0, MAX_SUBJECT),
      answers: [
        { fieldId: 'message', label: 'Message', value: link },
        { fieldId: 'author', label: 'Author', value: `<@${m.authorId}>` },
        { fieldId: 'content', label: 'Text', value: m.content.slice(0, MAX_QUOTE) },
      ],
    });
  },
};
