import { sql, type Kysely } from 'kysely';

/**
 * The platform effects (reward roles, announcement) of each level a member reached from activity (the bot's
 * messages, `simulate level-activity`), written in the transaction that moved their XP, keyed by the
 * `levels.levelUp` event's id: workflow `level-up/<guild>/<event>` applies them with retries, and the start relay
 * starts what has no recorded start. `applied_at` marks them applied (a later run changes nothing).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE level_up_effects (
      event_id text PRIMARY KEY,
      guild_id text NOT NULL,
      user_id text NOT NULL,
      previous_level integer NOT NULL,
      level integer NOT NULL,
      created_at timestamptz NOT NULL,
      workflow_started_at timestamptz,
      applied_at timestamptz,
      refused jsonb
    )`.execute(db);
  await sql`CREATE INDEX level_up_effects_unstarted ON level_up_effects (created_at) WHERE workflow_started_at IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE level_up_effects`.execute(db);
}
