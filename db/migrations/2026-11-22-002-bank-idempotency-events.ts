import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Idempotency-Key records: one per (API key, header value), kept 24 h (spec: Endpoints, rule 1).
  await db.schema
    .createTable('idempotency_records')
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'bytea', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('locked_until', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['api_key_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_records_expiry_idx').on('idempotency_records').column('expires_at').execute();

  // Transactional outbox: written in the transaction of the change it reports.
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('fanout_started_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('events_fanout_pending_idx')
    .on('events')
    .column('seq')
    .where(sql.ref('fanout_started_at'), 'is', null)
    .execute();
  await db.schema.createIndex('events_guild_idx').on('events').columns(['guild_id', 'seq']).execute();

  await db.schema
    .createTable('bank_settings')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    .addColumn('currency_name', 'text', (c) => c.notNull())
    .addColumn('currency_plural', 'text', (c) => c.notNull())
    .addColumn('currency_emoji', 'text')
    .addColumn('starting_balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('max_balance', 'bigint')
    .addColumn('log_channel_id', 'text')
    .execute();

  await db.schema
    .createTable('bank_accounts')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('bank_accounts_pk', ['guild_id', 'user_id'])
    .addCheckConstraint('bank_accounts_balance_non_negative', sql`balance >= 0`)
    .execute();
  await db.schema
    .createIndex('bank_accounts_leaderboard_idx')
    .on('bank_accounts')
    .expression(sql`guild_id, balance desc, user_id`)
    .execute();

  await db.schema
    .createTable('bank_ledger')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('counterparty_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('api_key_id', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_ledger_member_idx').on('bank_ledger').columns(['guild_id', 'user_id', 'id']).execute();

  // Messages the local platform adapter "posted"; the idempotency key makes a retried post a no-op.
  await db.schema
    .createTable('platform_messages')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['platform_messages', 'bank_ledger', 'bank_accounts', 'bank_settings', 'events', 'idempotency_records']) {
    await db.schema.dropTable(table).execute();
  }
}
