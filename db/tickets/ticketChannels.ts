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
