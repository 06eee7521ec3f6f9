import { sql, type Kysely } from 'kysely';

/**
 * Giveaway ends drawn in batches (docs/performance.md, "Giveaway ends"): `end_by` says who ends a giveaway at its
 * `ends_at`: its own workflow's timer (`workflow`, every run from before the change) or the every-second batch
 * (`batch`), for which `ends_at` is the durable timer. `close_notified_at` records that a batch-ended giveaway's
 * workflow was told its reroll window passed. The partial indexes keep the batch's and the relay's scans to the
 * rows they want.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE giveaways ADD COLUMN end_by text NOT NULL DEFAULT 'workflow' CHECK (end_by IN ('workflow', 'batch'))`.execute(db);
  await sql`ALTER TABLE giveaways ADD COLUMN close_notified_at timestamptz`.execute(db);
  await sql`CREATE INDEX giveaways_batch_due ON giveaways (ends_at) WHERE status = 'active' AND end_by = 'batch'`.execute(db);
  await sql`CREATE INDEX giveaways_batch_unclosed ON giveaways (ended_at) WHERE status = 'ended' AND end_by = 'batch' AND close_notified_at IS NULL`.execute(db);
  await sql`CREATE INDEX giveaway_actions_queued ON giveaway_actions (id) WHERE status = 'queued'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX giveaway_actions_queued`.execute(db);
  await sql`DROP INDEX giveaways_batch_unclosed`.execute(db);
  await sql`DROP INDEX giveaways_batch_due`.execute(db);
  await sql`ALTER TABLE giveaways DROP COLUMN close_notified_at`.execute(db);
  await sql`ALTER TABLE giveaways DROP COLUMN end_by`.execute(db);
}
