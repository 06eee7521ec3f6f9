import { sql, type Kysely } from 'kysely';

/**
 * An XP change asked for from the console has no API key: it names the console user instead (the audit row's actor,
 * and who may read it there). Exactly one of the two is set, so an API key's changes read as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE xp_changes ALTER COLUMN api_key_id DROP NOT NULL, ADD COLUMN console_user_id text,
    ADD CONSTRAINT xp_changes_one_asker CHECK ((api_key_id IS NULL) <> (console_user_id IS NULL))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM xp_changes WHERE api_key_id IS NULL`.execute(db);
  await sql`ALTER TABLE xp_changes DROP CONSTRAINT xp_changes_one_asker, DROP COLUMN console_user_id,
    ALTER COLUMN api_key_id SET NOT NULL`.execute(db);
}
