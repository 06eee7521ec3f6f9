import { sql, type Kysely } from 'kysely';

/**
 * The API close of a ticket: the close stands in the request's transaction, then workflow
 * `ticket-close/<guild>/<ticketNo>` applies it on the platform (log line, DM to the opener, channel closed
 * or thread archived). The local platform records closed ticket channels and archived threads.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tickets')
    /** True from an API close until its workflow applied it on the platform. */
    .addColumn('close_applying', 'boolean', (c) => c.notNull().defaultTo(false))
    /** When the close workflow was started (null while its start relay still has to start it). */
    .addColumn('close_workflow_started_at', 'timestamptz')
    /** The platform effects of an API close that failed ([{type, error}]); null until it finished. */
    .addColumn('close_failed_actions', 'jsonb')
    .execute();
  await db.schema
    .createIndex('tickets_close_applying_idx')
    .on('tickets')
    .columns(['closed_at'])
    .where(sql.ref('close_applying'), '=', true)
    .execute();
  /** The channel where the bot logs ticket closes; null = no log line. */
  await db.schema.alterTable('ticket_settings').addColumn('log_channel_id', 'text').execute();

  await db.schema
    .createTable('platform_closed_channels')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    /** true: the thread was archived (and locked); false: the channel was deleted. */
    .addColumn('thread', 'boolean', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('platform_closed_channels_pk', ['guild_id', 'channel_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform_closed_channels').execute();
  await db.schema.alterTable('ticket_settings').dropColumn('log_channel_id').execute();
  await db.schema.dropIndex('tickets_close_applying_idx').execute();
  await db.schema.alterTable('tickets').dropColumn('close_applying').dropColumn('close_workflow_started_at').dropColumn('close_failed_actions').execute();
}
