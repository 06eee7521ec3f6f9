import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

type Db = Kysely<Database>;

export interface TranscriptEmbed {
  title: string | null;
  description: string | null;
  fields: Array<{ name: string; value: string }>;
}

export interface TranscriptAttachment {
  name: string;
  size: number;
  contentType: string | null;
}

export interface TicketMessageRecord {
  id: string;
  authorId: string | null;
  content: string;
  createdAt: Date;
  editedAt: Date | null;
  system: boolean;
  replyTo: string | null;
  embeds: TranscriptEmbed[];
  attachments: TranscriptAttachment[];
  stickers: string[];
}

const orNull = <T>(list: T[]) => (list.length === 0 ? null : JSON.stringify(list));

/** Stores one message of a ticket; a second copy of the same message id is ignored (false). */
export async function insertTicketMessage(trx: Db, guildId: string, ticketNo: number, m: TicketMessageRecord): Promise<boolean> {
  const rows = await trx
    .insertInto('ticket_messages')
    .values({
      guild_id: guildId,
      ticket_no: ticketNo,
      message_id: m.id,
      author_id: m.authorId,
      content: m.content,
      created_at: m.createdAt,
      edited_at: m.editedAt,
      system: m.system,
      reply_to: m.replyTo,
      embeds: orNull(m.embeds),
      attachments: orNull(m.attachments),
      stickers: orNull(m.stickers),
    })
    .onConflict((oc) => oc.columns(['guild_id', 'ticket_no', 'message_id']).doNothing())
    .returning('message_id')
    .execute();
  return rows.length === 1;
}

/**
 * One page of a transcript, oldest first: the messages after `after` (a message id), found by one range scan
 * of the primary key, so every page costs the same however deep it is.
 */
export function transcriptPageQuery(db: Db, guildId: string, ticketNo: number, f: { after?: string; limit: number }) {
  let q = db
    .selectFrom('ticket_messages')
    .select([
      sql<string>`message_id::text`.as('id'),
      'author_id',
      'content',
      'created_at',
      'edited_at',
      'system',
      'reply_to',
      'embeds',
      'attachments',
      'stickers',
    ])
    .where('guild_id', '=', guildId)
    .where('ticket_no', '=', ticketNo);
  if (f.after !== undefined) q = q.where('message_id', '>', sql<string>`${f.after}::numeric`);
  return q.orderBy('message_id').limit(f.limit);
}

export async function listTicketMessages(
  db: Db,
  guildId: string,
  ticketNo: number,
  f: { after?: string; limit: number },
): Promise<TicketMessageRecord[]> {
  const rows = await transcriptPageQuery(db, guildId, ticketNo, f).execute();
  return rows.map((r) => ({
    id: r.id,
    authorId: r.author_id,
    content: r.content,
    createdAt: r.created_at,
    editedAt: r.edited_at,
    system: r.system,
    replyTo: r.reply_to,
    embeds: (r.embeds as TranscriptEmbed[] | null) ?? [],
    attachments: (r.attachments as TranscriptAttachment[] | null) ?? [],
    stickers: (r.stickers as string[] | null) ?? [],
  }));
}

/** Messages per author (system messages and messages without an author left out), counted once when the transcript is saved. */
export async function countTicketMessagesByAuthor(trx: Db, guildId: string, ticketNo: number): Promise<{ total: number; users: Record<string, { messages: number }> }> {
  const rows = await trx
    .selectFrom('ticket_messages')
    .select(['author_id', 'system', sql<string>`count(*)`.as('n')])
    .where('guild_id', '=', guildId)
    .where('ticket_no', '=', ticketNo)
    .groupBy(['author_id', 'system'])
    .execute();
  const users: Record<string, { messages: number }> = {};
  let total = 0;
  for (const r of rows) {
    total += Number(r.n);
    if (r.author_id === null || r.system) continue;
    users[r.author_id] = { messages: (users[r.author_id]?.messages ?? 0) + Number(r.n) };
  }
  return { total, users };
}
