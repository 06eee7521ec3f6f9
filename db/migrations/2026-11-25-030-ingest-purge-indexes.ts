import { sql, type Kysely } from 'kysely';

/**
 * The hourly purge deletes the bot's claims of counted messages and handled interactions once no replay can bring
 * them back (activities/keys.ts); these indexes keep that delete from scanning every claim.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX level_counted_messages_counted_at ON level_counted_messages (counted_at)`.execute(db);
  await sql`CREATE INDEX handled_interactions_handled_at ON handled_interactions (handled_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX handled_interactions_handled_at`.execute(db);
  await sql`DROP INDEX level_counted_messages_counted_at`.execute(db);
}
