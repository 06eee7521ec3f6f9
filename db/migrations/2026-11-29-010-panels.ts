import { sql, type Kysely } from 'kysely';

/**
 * Panels the service posts (Discord shows buttons only on the bot's own messages): a ticket panel (one open button;
 * where its tickets open: a category, the staff roles that see them) and an application panel (one apply button per
 * form). Each remembers the message it posted, so a later change edits that message in place, and how many times it
 * was posted: the idempotency key of the next post, so a retried post is one message and a repost after a deletion a
 * new one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ticket_panels')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('panel_id', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('button_label', 'text', (c) => c.notNull())
    .addColumn('category_id', 'text')
    .addColumn('staff_role_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('message_channel_id', 'text')
    .addColumn('message_id', 'text')
    .addColumn('posts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_panels_pk', ['guild_id', 'panel_id'])
    .execute();

  await db.schema
    .createTable('application_panels')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('panel_id', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    /** The forms whose buttons it shows, in this order; null: every form of the server, in console order. */
    .addColumn('form_ids', sql`integer[]`)
    .addColumn('message_channel_id', 'text')
    .addColumn('message_id', 'text')
    .addColumn('posts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('application_panels_pk', ['guild_id', 'panel_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('application_panels').execute();
  await db.schema.dropTable('ticket_panels').execute();
}
