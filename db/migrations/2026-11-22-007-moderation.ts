import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // The local platform's side of moderation: bans, timeouts, DMs and invites, so tests and the demo can
  // see every effect a moderation action or an appeal decision had.
  await db.schema
    .alterTable('platform_members')
    .addColumn('timed_out_until', 'timestamptz')
    /** A member who closed their DMs: a DM to them fails, as it does on the platform. */
    .addColumn('accepts_dms', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema
    .createTable('platform_bans')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('platform_bans_pk', ['guild_id', 'user_id'])
    .execute();
  // Every kick, ban, unban, timeout and untimeout the local platform applied, in order.
  await db.schema
    .createTable('platform_moderation_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('platform_direct_messages')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('platform_invites')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('moderation_settings')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    /** DM the member about actions taken against them. */
    .addColumn('dm_members', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('log_channel_id', 'text')
    /** Warnings stop counting toward escalation after this long; null = never. */
    .addColumn('warning_expiry_seconds', 'integer')
    .execute();
  // "At N active warnings, do this": each threshold triggers its action once, as its own case.
  await db.schema
    .createTable('moderation_escalations')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('warnings', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('duration_seconds', 'integer')
    .addPrimaryKeyConstraint('moderation_escalations_pk', ['guild_id', 'warnings'])
    .execute();

  // Case and appeal numbers count per server, without gaps from rolled-back transactions.
  await db.schema
    .createTable('record_counters')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('record_counters_pk', ['guild_id', 'kind'])
    .execute();

  await db.schema
    .createTable('moderation_cases')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('user_tag', 'text')
    .addColumn('moderator_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('duration_seconds', 'integer')
    .addColumn('evidence', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('dm_status', 'text')
    .addColumn('api_key_id', 'integer')
    .addColumn('api_key_name', 'text')
    /** The moderation action (or appeal decision) that made it: one case per operation, even when retried. */
    .addColumn('operation_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deleted_at', 'timestamptz')
    .addPrimaryKeyConstraint('moderation_cases_pk', ['guild_id', 'number'])
    .execute();
  await db.schema.createIndex('moderation_cases_user_idx').on('moderation_cases').columns(['guild_id', 'user_id', 'number']).execute();
  await db.schema
    .createTable('moderation_case_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('case_number', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addForeignKeyConstraint('moderation_case_events_case_fk', ['guild_id', 'case_number'], 'moderation_cases', ['guild_id', 'number'])
    .execute();
  await db.schema
    .createIndex('moderation_case_events_case_idx')
    .on('moderation_case_events')
    .columns(['guild_id', 'case_number', 'id'])
    .execute();

  // The durable record of each moderation action: ownership for polling, the outcome past retention.
  await db.schema
    .createTable('moderation_actions')
    .addColumn('action_id', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    /** Null for escalations, which the bot runs on its own. */
    .addColumn('api_key_id', 'integer')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('request', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('case_number', 'integer')
    .addColumn('error', 'text')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('workflow_started_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('moderation_actions_unstarted_idx')
    .on('moderation_actions')
    .column('requested_at')
    .where(sql.ref('workflow_started_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'moderation_actions',
    'moderation_case_events',
    'moderation_cases',
    'record_counters',
    'moderation_escalations',
    'moderation_settings',
    'platform_invites',
    'platform_direct_messages',
    'platform_moderation_log',
    'platform_bans',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('platform_members').dropColumn('timed_out_until').dropColumn('accepts_dms').execute();
}
