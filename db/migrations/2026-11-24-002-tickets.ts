import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ticket_settings')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    /** Save a transcript when a ticket closes; off = closed tickets have none (404 TRANSCRIPT_NOT_FOUND). */
    .addColumn('transcripts', 'boolean', (c) => c.notNull().defaultTo(true))
    /** The last ticket number given out in this server (locked while a ticket opens). */
    .addColumn('last_ticket_no', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('tickets')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('ticket_no', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('panel_id', 'integer')
    .addColumn('panel_title', 'text')
    .addColumn('subject', 'text')
    .addColumn('source', 'text')
    .addColumn('is_thread', 'boolean', (c) => c.notNull())
    .addColumn('channel_id', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_message_at', 'timestamptz')
    .addColumn('first_response_at', 'timestamptz')
    .addColumn('first_response_by', 'text')
    .addColumn('user_messages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('staff_messages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating', 'integer')
    .addColumn('answers', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'`))
    .addColumn('members', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'`))
    .addColumn('close_request', 'jsonb')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'text')
    .addColumn('close_reason', 'text')
    .addColumn('close_type', 'text')
    /** Set when the transcript was saved at close; null = no transcript. */
    .addColumn('transcript_generated_at', 'timestamptz')
    .addColumn('transcript_message_content', 'boolean')
    .addColumn('transcript_total', 'integer')
    /** Per-author message counts of the transcript, computed once when it is saved. */
    .addColumn('transcript_users', 'jsonb')
    .addPrimaryKeyConstraint('tickets_pk', ['guild_id', 'ticket_no'])
    .execute();
  await db.schema.createIndex('tickets_status_idx').on('tickets').columns(['guild_id', 'status', 'ticket_no']).execute();
  await db.schema.createIndex('tickets_user_idx').on('tickets').columns(['guild_id', 'user_id', 'ticket_no']).execute();
  await db.schema.createIndex('tickets_panel_idx').on('tickets').columns(['guild_id', 'panel_id', 'ticket_no']).execute();

  // One row per message, keyed by the message's snowflake as a number: a transcript page is one index range
  // scan from `after`, whatever its position. Empty embeds, attachments and stickers are stored as null.
  await db.schema
    .createTable('ticket_messages')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('ticket_no', 'integer', (c) => c.notNull())
    .addColumn('message_id', sql`numeric(20, 0)`, (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('edited_at', 'timestamptz')
    .addColumn('system', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('reply_to', 'text')
    .addColumn('embeds', 'jsonb')
    .addColumn('attachments', 'jsonb')
    .addColumn('stickers', 'jsonb')
    .addPrimaryKeyConstraint('ticket_messages_pk', ['guild_id', 'ticket_no', 'message_id'])
    .addForeignKeyConstraint('ticket_messages_ticket_fk', ['guild_id', 'ticket_no'], 'tickets', ['guild_id', 'ticket_no'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['ticket_messages', 'tickets', 'ticket_settings']) await db.schema.dropTable(table).execute();
}
