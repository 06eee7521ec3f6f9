import { sql, type Kysely } from 'kysely';

/**
 * The buttons under a message or DM the local platform records (what Discord would show under the bot's message):
 * a JSON array of {id, label}, null for a message without any. Nullable columns with no default: added without
 * rewriting the tables.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE platform_messages ADD COLUMN buttons jsonb`.execute(db);
  await sql`ALTER TABLE platform_direct_messages ADD COLUMN buttons jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE platform_messages DROP COLUMN buttons`.execute(db);
  await sql`ALTER TABLE platform_direct_messages DROP COLUMN buttons`.execute(db);
}
