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
 * Gives an open ticket that has none its channel, in the caller's transaction. A ticket that got one meanwhile keeps
 * it. Returns the channel the ticket has now (undefined when it is closed or gone) and whether this call gave it.
 */
export async function setMissingTicketChannel(
  trx: Kysely<Database>,
  guildId: string,
  ticketNo: number,
  channelId: string,
): Promise<{ channelId: string | undefined; given: boolean }> {
  const given = await trx
    .updateTable('tickets')
    .set({ channel_id: channelId })
    .where('guild_id', '=', guildId)
    .where('ticket_no', '=', ticketNo)
    .where('channel_id', 'is', null)
    .where('status', '<>', 'closed')
    .executeTakeFirst();
  const row = await trx
    .selectFrom('tickets')
    .select('channel_id')
    .where('guild_id', '=', guildId)
    .where('ticket_no', '=', ticketNo)
    .where('status', '<>', 'closed')
    .executeTakeFirst();
  return { channelId: row?.channel_id ?? undefined, given: given.numUpdatedRows > 0n };
}
