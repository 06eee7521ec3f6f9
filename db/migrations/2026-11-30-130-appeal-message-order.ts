import { sql, type Kysely } from 'kysely';

/**
 * `appeal_messages_visible_order`: an appeal's conversation without the staff notes, in message order, as both the
 * API (oldest first) and the console's pages (newest first, keyset on id) read it; until now the conversation was a
 * scan of every message. Built concurrently, outside a transaction, so messages go on being written during the build.
 */
export const transaction = false;

export async function up(db: Kysely<any>): Promise<void> {
  // A failed concurrent build leaves an invalid index of that name behind.
  await sql`DROP INDEX CONCURRENTLY IF EXISTS appeal_messages_visible_order`.execute(db);
  await sql`CREATE INDEX CONCURRENTLY appeal_messages_visible_order ON appeal_messages (guild_id, appeal_number, id) WHERE NOT internal`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX CONCURRENTLY IF EXISTS appeal_messages_visible_order`.execute(db);
}
