import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { FailedTicketCloseAction } from './tickets.js';

type Db = Kysely<Database>;

// A server's ticket settings and the bookkeeping of API closes (their workflow's start and outcome).


/** The ticket settings of a server; defaults (transcripts on) when it has none. */
export async function findTicketSettings(db: Db, guildId: string): Promise<{ transcripts: boolean; logChannelId: string | null }> {
  const row = await db.selectFrom('ticket_settings').select(['transcripts', 'log_channel_id']).where('guild_id', '=', guildId).executeTakeFirst();
  return { transcripts: row?.transcripts ?? true, logChannelId: row?.log_channel_id ?? null };
}

/** The channel where ticket closes are logged (null: none). */
export async function setTicketLogChannel(db: Db, guildId: string, logChannelId: string | null): Promise<void> {
  await db
    .insertInto('ticket_settings')
    .values({ guild_id: guildId, log_channel_id: logChannelId })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet({ log_channel_id: logChannelId }))
    .execute();
}

/** The close workflow of an API close was started (set once). */
export async function markTicketCloseStarted(db: Db, guildId: string, ticketNo: number, at: Date): Promise<void> {
  await db
    .updateTable('tickets')
    .set({ close_workflow_started_at: at })
    .where('guild_id', '=', guildId)
    .where('ticket_no', '=', ticketNo)
    .where('close_workflow_started_at', 'is', null)
    .execute();
}

/** The close workflow finished: no longer applying, with the effects that failed. */
export async function finishTicketClose(db: Db, guildId: string, ticketNo: number, failed: FailedTicketCloseAction[]): Promise<void> {
  await db
    .updateTable('tickets')
    .set({ close_applying: false, close_failed_actions: JSON.stringify(failed) })
    .where('guild_id', '=', guildId)
    .where('ticket_no', '=', ticketNo)
    .execute();
}

/** API closes committed before `olderThan` whose workflow start was not recorded, oldest first (the start relay). */
export async function listUnstartedTicketCloses(db: Db, olderThan: Date, limit: number): Promise<{ guildId: string; ticketNo: number }[]> {
  const rows = await db
    .selectFrom('tickets')
    .select(['guild_id', 'ticket_no'])
    .where('close_applying', '=', true)
    .where('close_workflow_started_at', 'is', null)
    .where('closed_at', '<', olderThan)
    .orderBy('closed_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ guildId: r.guild_id, ticketNo: r.ticket_no }));
}

export async function setTicketTranscripts(db: Db, guildId: string, transcripts: boolean): Promise<void> {
  await db
    .insertInto('ticket_settings')
    .values({ guild_id: guildId, transcripts })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet({ transcripts }))
    .execute();
}
