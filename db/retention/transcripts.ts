import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { expiredByServer, type BatchOutcome, type PlanCutoffs } from './expiredByServer.js';

/** Closed tickets that still have a transcript or messages: what comes due. */
export const TRANSCRIPT_ROWS = {
  table: 'tickets',
  time: 'closed_at',
  where: sql`t.status = 'closed' and (t.transcript_generated_at is not null
    or exists (select 1 from ticket_messages m where m.guild_id = t.guild_id and m.ticket_no = t.ticket_no))`,
};

/**
 * One batch of expired transcripts: closed tickets past their cutoff that still have a transcript or messages lose
 * the transcript at once (it answers TRANSCRIPT_NOT_FOUND from this batch on, never a partial one), and up to
 * `limit` of their messages are deleted; the ticket itself stays. A ticket with more messages than a batch is taken
 * again by the next one.
 */
export async function purgeTranscriptsBatch(db: Kysely<Database>, cutoffs: PlanCutoffs, cursor: string, limit: number): Promise<BatchOutcome> {
  const doomed = expiredByServer({ ...TRANSCRIPT_ROWS, columns: ['ticket_no'] }, cutoffs, cursor, limit);
  const { rows: [row] } = await sql<{ tickets: number; messages: number; first: string | null; last: string | null }>`
    with doomed as (${doomed}),
    hidden as (
      update tickets t set transcript_generated_at = null, transcript_message_content = null, transcript_total = null, transcript_users = null
      from doomed d where t.guild_id = d.guild_id and t.ticket_no = d.ticket_no and t.transcript_generated_at is not null),
    gone as (
      delete from ticket_messages m where (m.guild_id, m.ticket_no, m.message_id) in (
        select m2.guild_id, m2.ticket_no, m2.message_id from ticket_messages m2 join doomed d on m2.guild_id = d.guild_id and m2.ticket_no = d.ticket_no
        limit ${limit})
      returning 1)
    select (select count(*) from doomed)::int as tickets, (select count(*) from gone)::int as messages,
      (select min(guild_id) from doomed) as first, (select max(guild_id) from doomed) as last`.execute(db);
  const { tickets, messages, first, last } = row!;
  // Messages left over belong to any ticket of the batch: the next batch starts at its first server.
  const next = messages >= limit ? first : tickets >= limit ? last : null;
  return { deleted: messages, next };
}
