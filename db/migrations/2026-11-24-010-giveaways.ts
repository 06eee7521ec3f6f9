import { sql, type Kysely } from 'kysely';

/**
 * Giveaways: one row per giveaway (numbered per server), its entries, its draws (keyed by draw number, so a
 * retried draw finds the stored one) and the bot-side actions it queued (message, edits, DMs, announcements).
 * The workflow `giveaway/<guild>/<id>` drives the lifecycle; these tables are what the API reads.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('giveaway_settings')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    /** The server's Giveaways look: defaults of a giveaway's embed. */
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#D94CFF'))
    .addColumn('ended_color', 'text', (c) => c.notNull().defaultTo('#4E5058'))
    .addColumn('emoji', 'text', (c) => c.notNull().defaultTo('🎉'))
    .addColumn('image_url', 'text')
    .addColumn('thumbnail_url', 'text')
    .addColumn('dm_winners', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();

  await db.schema
    .createTable('giveaways')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('prize', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('message_url', 'text')
    .addColumn('winners_count', 'integer', (c) => c.notNull())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    /** Set when the draw closed entries (the giveaway still shows `active` until its draw is stored). */
    .addColumn('entries_closed_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('host_id', 'text', (c) => c.notNull())
    .addColumn('requirements', 'jsonb', (c) => c.notNull())
    .addColumn('embed', 'jsonb', (c) => c.notNull())
    .addColumn('ping_role_id', 'text')
    .addColumn('dm_winners', 'boolean', (c) => c.notNull())
    /** 32 random bytes (hex), kept secret until the first draw reveals it; seed_hash is shown from the start. */
    .addColumn('seed', 'text', (c) => c.notNull())
    .addColumn('seed_hash', 'text', (c) => c.notNull())
    /** The current winners: the first draw's, changed by rerolls. */
    .addColumn('winner_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('workflow_started_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    /** When the running workflow was told of the cancel (null while the cancel relay still has to). */
    .addColumn('cancel_notified_at', 'timestamptz')
    .addPrimaryKeyConstraint('giveaways_pk', ['guild_id', 'id'])
    .execute();
  await db.schema.createIndex('giveaways_list_idx').on('giveaways').columns(['guild_id', 'status', 'ends_at']).execute();
  await db.schema
    .createIndex('giveaways_unstarted_idx')
    .on('giveaways')
    .columns(['created_at'])
    .where(sql.ref('workflow_started_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('giveaways_cancel_unnotified_idx')
    .on('giveaways')
    .columns(['cancelled_at'])
    .where(sql<boolean>`status = 'cancelled' and cancel_notified_at is null`)
    .execute();

  await db.schema
    .createTable('giveaway_entries')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('giveaway_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    /** Tickets in the draw: 1, or the highest bonus role's entries held when entering. */
    .addColumn('tickets', 'integer', (c) => c.notNull())
    /** The entry cost debited (refunded when leaving or on cancel). */
    .addColumn('paid', 'bigint', (c) => c.notNull())
    .addColumn('entered_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('giveaway_entries_pk', ['guild_id', 'giveaway_id', 'user_id'])
    .execute();
  await db.schema.createIndex('giveaway_entries_page_idx').on('giveaway_entries').columns(['guild_id', 'giveaway_id', 'entered_at', 'user_id']).execute();

  await db.schema
    .createTable('giveaway_draws')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('giveaway_id', 'integer', (c) => c.notNull())
    .addColumn('draw_number', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('requested', 'integer', (c) => c.notNull())
    .addColumn('winner_ids', sql`text[]`, (c) => c.notNull())
    .addColumn('replaced_user_ids', sql`text[]`, (c) => c.notNull())
    .addColumn('entrants', 'integer', (c) => c.notNull())
    .addColumn('entries', 'bigint', (c) => c.notNull())
    .addColumn('checked_entrants', 'integer', (c) => c.notNull())
    .addColumn('shortfall', 'integer', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('drawn_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('giveaway_draws_pk', ['guild_id', 'giveaway_id', 'draw_number'])
    .execute();

  await db.schema
    .createTable('giveaway_actions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('giveaway_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('draw_number', 'integer')
    .addColumn('user_id', 'text')
    .addColumn('error', 'text')
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('done_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('giveaway_actions_giveaway_idx').on('giveaway_actions').columns(['guild_id', 'giveaway_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['giveaway_actions', 'giveaway_draws', 'giveaway_entries', 'giveaways', 'giveaway_settings']) {
    await db.schema.dropTable(table).execute();
  }
}
