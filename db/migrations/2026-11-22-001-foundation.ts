import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('guilds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('free'))
    .addColumn('features', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('blocked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull().references('guilds.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_guild_idx').on('api_keys').column('guild_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('api_key_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('request_id', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_guild_idx').on('audit_log').columns(['guild_id', 'id']).execute();

  // Fixed-window counters shared by every api instance: per-key request rate, per-IP auth failures.
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['bucket', 'window_start'])
    .execute();

  // The local Platform adapter keeps the chat platform's side of things in these tables.
  await db.schema
    .createTable('platform_guilds')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('bot_user_id', 'text', (c) => c.notNull())
    .addColumn('reachable', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema
    .createTable('platform_roles')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'integer')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('managed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('hoist', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('mentionable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('0'))
    .addPrimaryKeyConstraint('platform_roles_pk', ['guild_id', 'role_id'])
    .execute();
  await db.schema
    .createTable('platform_channels')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('platform_channels_pk', ['guild_id', 'channel_id'])
    .execute();
  await db.schema
    .createTable('platform_members')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('global_name', 'text')
    .addColumn('nickname', 'text')
    .addColumn('avatar', 'text')
    .addColumn('bot', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('role_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('joined_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('platform_members_pk', ['guild_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'platform_members',
    'platform_channels',
    'platform_roles',
    'platform_guilds',
    'rate_limit_counters',
    'audit_log',
    'api_keys',
    'guilds',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
