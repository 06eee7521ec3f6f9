import { sql, type Kysely } from 'kysely';

/**
 * Batched first attempts (issue 16): events are claimed into numbered batches, deliveries are recorded in
 * the event's own transaction, and a first attempt is claimed before it is dialled.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE SEQUENCE event_batch_seq`.execute(db);
  await db.schema
    .alterTable('events')
    .addColumn('batch_id', 'bigint')
    // Events written before this migration get their deliveries when their batch runs, as they did before.
    .addColumn('deliveries_at_commit', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`ALTER TABLE events ALTER COLUMN deliveries_at_commit SET DEFAULT true`.execute(db);
  await db.schema.createIndex('events_batch_idx').on('events').column('batch_id').where(sql.ref('batch_id'), 'is not', null).execute();
  // When the first attempt was claimed for dialling: a claim without a logged attempt is an attempt cut short.
  await db.schema.alterTable('webhook_deliveries').addColumn('first_dialled_at', 'timestamptz').execute();
  await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').column('event_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_event_idx').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('first_dialled_at').execute();
  await db.schema.dropIndex('events_batch_idx').execute();
  await db.schema.alterTable('events').dropColumn('deliveries_at_commit').dropColumn('batch_id').execute();
  await sql`DROP SEQUENCE event_batch_seq`.execute(db);
}
