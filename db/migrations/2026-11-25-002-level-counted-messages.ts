import { sql, type Kysely } from 'kysely';

/**
 * The messages the bot has counted for XP, by Discord's message id: a message delivered twice (a resumed
 * gateway session, a replayed dispatch) earns XP once. The hourly purge deletes
 * rows a week old (activities/keys.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE level_counted_messages (
      guild_id text NOT NULL,
      message_id text NOT NULL,
      counted_at timestamptz NOT NULL,
      PRIMARY KEY (guild_id, message_id)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE level_counted_messages`.execute(db);
}
