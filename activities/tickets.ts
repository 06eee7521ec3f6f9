import { findGuild } from '../db/guild/guilds.js';
import { findTicket, type FailedTicketCloseAction } from '../db/tickets/tickets.js';
import { findTicketSettings, finishTicketClose } from '../db/tickets/closes.js';
import { ticketCloseLogLine, ticketClosedDirectMessage } from '../src/tickets/ticketCloseMessages.js';
import type { ActivityDeps } from './deps.js';
import { refuse } from './refusal.js';

export type TicketsActivities = ReturnType<typeof createTicketsActivities>;

export function createTicketsActivities(deps: ActivityDeps) {
  const { db, platform } = deps;

  async function loadClosed(guildId: string, ticketNo: number) {
    const ticket = await findTicket(db, guildId, ticketNo);
    if (!ticket || ticket.status !== 'closed') throw refuse('TICKET_NOT_FOUND', `Ticket ${ticketNo} is not closed.`);
    return ticket;
  }

  return {
    /** The close line in the server's ticket log channel (none set: nothing to do). */
    async postTicketCloseLog(guildId: string, ticketNo: number): Promise<void> {
      const ticket = await loadClosed(guildId, ticketNo);
      const { logChannelId } = await findTicketSettings(db, guildId);
      if (!logChannelId) return;
      const line = ticketCloseLogLine({ ticketNo, userId: ticket.userId, reason: ticket.closeReason, hasTranscript: ticket.transcriptGeneratedAt !== null });
      await platform.postMessage(guildId, logChannelId, line, `ticket-close-log/${guildId}/${ticketNo}`);
    },

    /** The DM a staff close sends the opener, sent once; 'failed' when they do not accept DMs. */
    async notifyTicketOpener(guildId: string, ticketNo: number): Promise<'sent' | 'failed'> {
      const ticket = await loadClosed(guildId, ticketNo);
      const guild = await findGuild(db, guildId);
      const content = ticketClosedDirectMessage({ guildName: guild?.name ?? 'the server', ticketNo, subject: ticket.subject, reason: ticket.closeReason });
      return platform.sendDirectMessage(guildId, ticket.userId, content, `ticket-close-dm/${guildId}/${ticketNo}`);
    },

    /** Deletes the ticket's channel or archives its thread (no channel recorded: nothing to do). */
    async closeTicketChannel(guildId: string, ticketNo: number): Promise<void> {
      const ticket = await loadClosed(guildId, ticketNo);
      if (!ticket.channelId) return;
      await platform.closeTicketChannel(guildId, ticket.channelId, { thread: ticket.isThread }, `ticket-close-channel/${guildId}/${ticketNo}`);
    },

    async finishTicketClose(guildId: string, ticketNo: number, failed: FailedTicketCloseAction[]): Promise<void> {
      await finishTicketClose(db, guildId, ticketNo, failed);
    },
  };
}
