import type { Kysely } from 'kysely';
import type { GuildRecord } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import type { TicketMessageRecord } from '../../db/tickets/messages.js';
import { openTicketsByChannel } from '../../db/tickets/ticketChannels.js';
import { addTicketMessage } from './addTicketMessage.js';

/**
 * Messages posted in one server, in order, in the caller's transaction; nothing where Tickets is off. Those in an
 * open ticket's channel or thread are added to it (addTicketMessage, as `simulate ticket-message`); the others are
 * no ticket's. Returns how many were stored.
 */
export async function recordTicketMessages(
  trx: Kysely<Database>,
  guild: GuildRecord,
  messages: Array<{ channelId: string; message: TicketMessageRecord }>,
): Promise<number> {
  if (!guild.features.includes('tickets') || messages.length === 0) return 0;
  const tickets = await openTicketsByChannel(trx, guild.id, [...new Set(messages.map((m) => m.channelId))]);
  let stored = 0;
  for (const { channelId, message } of messages) {
    const ticketNo = tickets.get(channelId);
    if (ticketNo !== undefined && (await addTicketMessage(trx, { guildId: guild.id, ticketNo, message })).stored) stored += 1;
  }
  return stored;
}
