import { sql, type Kysely } from 'kysely';

/**
 * When each of Discord's identify rate-limit keys (shard id % max_concurrency) last let a shard identify, shared by
 * every bot process: Discord takes max_concurrency identifies per 5 s, across all the bot's connections.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE bot_identify_slots (
      rate_limit_key integer PRIMARY KEY,
      identified_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE bot_identify_slots`.execute(db);
}
