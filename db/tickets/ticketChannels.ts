import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** The open (not closed) tickets among these channels (a ticket's channel or thread), by channel id. */
export async function openTicketsByChannel(trx: Kysely<Database>, guildId: string, channelIds: string[]): Promise<Map<string, number>> {
  if (channelIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('tickets')
    .select(['channel_id', 'ticket_no'])
    .where('guild_id', '=', guildId)
    .where('channel_id', 'in', channelIds)
    .where('status', '<>', 'closed')
    .execute();
  return new Map(rows.map((r) => [r.channel_id!, r.ticket_no]));
}

/**
 * Gives an open ticket that has none its channel. A ticket that got one meanwhile keeps it; returns the channel the
 * ticket has now (undefined when it is closed or gone).
 */
export async function setMissingTicketChannel(db: Kysely<Database>, guildId: string, ticketNo: number, channelId: string): Promise<string | undefined> {
  await db
    .updateTable('tickets')
    .set({ channel_id: channelId })
    .where('guild_id', '=', guildId)
    .where('ticket_no', '=', ticketNo)
    .where('channel_id', 'is', null)
    .where('status', '<>', 'closed')
    .execute();
  const row = await db
    .selectFrom('tickets')
    .select('channel_id')
    .where('guild_id', '=', guildId)
    .where('ticket_no', '=', ticketNo)
    .where('status', '<>', 'closed')
    .executeTakeFirst();
  return row?.channel_id ?? undefined;
}
