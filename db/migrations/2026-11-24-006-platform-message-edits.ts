import type { Kysely } from 'kysely';

/** The local platform keeps the time of a message's last edit (giveaway results, application reviews). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('platform_messages').addColumn('edited_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('platform_messages').dropColumn('edited_at').execute();
}
