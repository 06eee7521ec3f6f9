import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('level_settings')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    .addColumn('announce_channel_id', 'text')
    /** `{user}` and `{level}` are replaced; see src/levels/levelUpMessage.ts. */
    .addColumn('announce_template', 'text', (c) => c.notNull().defaultTo('GG {user}, you reached level {level}!'))
    /** Remove the previous reward role when a higher one is given. */
    .addColumn('remove_previous_rewards', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('level_rewards')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('level_rewards_pk', ['guild_id', 'level', 'role_id'])
    .execute();

  await db.schema
    .createTable('level_members')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('xp', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('messages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('voice_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('streak', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('best_streak', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_xp_at', 'timestamptz')
    .addPrimaryKeyConstraint('level_members_pk', ['guild_id', 'user_id'])
    .addCheckConstraint('level_members_xp_non_negative', sql`xp >= 0`)
    .execute();
  // Leaderboard pages and ranks walk this index without touching the table (it covers a page's columns);
  // members without XP are not ranked.
  await sql`CREATE INDEX level_members_board_idx ON level_members (guild_id, xp DESC, user_id)
    INCLUDE (hidden, messages, voice_minutes) WHERE xp > 0`.execute(db);

  // The durable record of each XP change: ownership for polling, and the outcome past Temporal's retention.
  await db.schema
    .createTable('xp_changes')
    .addColumn('change_id', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('result', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('processed_at', 'timestamptz')
    .addColumn('workflow_started_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('xp_changes_unstarted_idx')
    .on('xp_changes')
    .column('created_at')
    .where(sql.ref('workflow_started_at'), 'is', null)
    .execute();

  // Role changes the local platform applied, so tests can assert reward roles were given exactly once.
  await db.schema
    .createTable('platform_role_changes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['platform_role_changes', 'xp_changes', 'level_members', 'level_rewards', 'level_settings']) {
    await db.schema.dropTable(table).execute();
  }
}
