import { sql, type Kysely } from 'kysely';

/**
 * Flows: definitions saved by operators, their runs (workflow `flow-run/<guild>/<executionId>`, executionId from
 * a sequence), the daily run quota per server, the bank and XP effects applied once per run and node, and the
 * cursor of the event trigger over the events table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('flows')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('trigger_type', 'text', (c) => c.notNull().check(sql`trigger_type in ('manual', 'webhook', 'event')`))
    .addColumn('trigger_event', 'text')
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('webhook_token_hash', 'bytea', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('flows_guild_idx').on('flows').columns(['guild_id', 'id']).execute();
  await db.schema.createIndex('flows_event_idx').on('flows').columns(['guild_id', 'trigger_event']).where(sql.ref('enabled'), '=', true).execute();

  await sql`create sequence flow_run_execution_seq as integer`.execute(db);
  await db.schema
    .createTable('flow_runs')
    .addColumn('execution_id', 'integer', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('flow_id', 'integer', (c) => c.notNull())
    .addColumn('flow_version', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('nodes', 'jsonb', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('input', 'jsonb', (c) => c.notNull())
    .addColumn('api_key_id', 'integer')
    .addColumn('event_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('output', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('duration_ms', 'integer')
    .addColumn('workflow_started_at', 'timestamptz')
    .addUniqueConstraint('flow_runs_event_flow_unique', ['event_id', 'flow_id'])
    .execute();
  await db.schema
    .createIndex('flow_runs_unstarted_idx')
    .on('flow_runs')
    .columns(['started_at'])
    .where(sql.ref('workflow_started_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('flow_run_quotas')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('flow_run_quotas_pk', ['guild_id', 'day'])
    .execute();

  await db.schema
    .createTable('flow_effects')
    .addColumn('execution_id', 'integer', (c) => c.notNull())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('result', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('flow_effects_pk', ['execution_id', 'node_id'])
    .execute();

  await db.schema
    .createTable('flow_event_cursors')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('flow_event_cursors').execute();
  await db.schema.dropTable('flow_effects').execute();
  await db.schema.dropTable('flow_run_quotas').execute();
  await db.schema.dropTable('flow_runs').execute();
  await sql`drop sequence flow_run_execution_seq`.execute(db);
  await db.schema.dropTable('flows').execute();
}
