import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('appeal_settings')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    /** DM the appellant when an appeal is rejected. */
    .addColumn('rejection_dm', 'boolean', (c) => c.notNull().defaultTo(true))
    /** How long a rejected appellant waits before appealing again. */
    .addColumn('reappeal_cooldown_seconds', 'integer', (c) => c.notNull().defaultTo(30 * 86_400))
    /** Where the single-use invite of an approved appeal points; null = the server's first text channel. */
    .addColumn('invite_channel_id', 'text')
    .execute();

  await db.schema
    .createTable('appeals')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('user_tag', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ban_case_number', 'integer')
    .addColumn('ban_reason', 'text')
    .addColumn('answers', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'`))
    .addColumn('claimed_by', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('reason', 'text')
    .addColumn('decided_with_api_key_id', 'integer')
    .addColumn('applying', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('failed_action', 'jsonb')
    .addColumn('reappeal_after', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_activity_at', 'timestamptz')
    .addColumn('workflow_started_at', 'timestamptz')
    .addPrimaryKeyConstraint('appeals_pk', ['guild_id', 'number'])
    .execute();
  await db.schema.createIndex('appeals_user_idx').on('appeals').columns(['guild_id', 'user_id', 'number']).execute();
  await db.schema
    .createIndex('appeals_unstarted_idx')
    .on('appeals')
    .column('decided_at')
    .where(sql<boolean>`applying AND workflow_started_at IS NULL`)
    .execute();

  await db.schema
    .createTable('appeal_messages')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('appeal_number', 'integer', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    /** Staff notes the appellant never sees; the API leaves them out. */
    .addColumn('internal', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addForeignKeyConstraint('appeal_messages_appeal_fk', ['guild_id', 'appeal_number'], 'appeals', ['guild_id', 'number'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['appeal_messages', 'appeals', 'appeal_settings']) await db.schema.dropTable(table).execute();
}
