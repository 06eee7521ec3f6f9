import { sql, type Kysely } from 'kysely';

/**
 * The bot's gateway session per shard, kept across restarts and crashes: the next process resumes it from `seq`,
 * the highest sequence below which every dispatch was handled (not merely received), so Discord replays the rest.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE bot_gateway_sessions (
      shard_id integer PRIMARY KEY,
      shard_count integer NOT NULL,
      session_id text NOT NULL,
      resume_url text NOT NULL,
      seq bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE bot_gateway_sessions`.execute(db);
}
