import { sql, type Kysely } from 'kysely';

/**
 * The interactions (button presses, form submissions) the bot has acted on, by Discord's interaction id, written in
 * the action's transaction: a dispatch replayed after a resumed session acts once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE handled_interactions (
      interaction_id text PRIMARY KEY,
      guild_id text,
      handled_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE handled_interactions`.execute(db);
}
