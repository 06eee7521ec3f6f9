import { sql, type Kysely } from 'kysely';

/**
 * The member a moderation action is taken by when a staff member used a command on Discord (source `command`):
 * their permissions and roles are checked when it runs and its case names them. Actions asked with an API key keep
 * `api_key_id` (the key's creator is read when it runs); escalations have neither (the bot acts alone).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE moderation_actions ADD COLUMN moderator_id text`.execute(db);
  await sql`
    ALTER TABLE moderation_actions ADD CONSTRAINT moderation_actions_command_moderator
    CHECK (source <> 'command' OR moderator_id IS NOT NULL)
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE moderation_actions DROP CONSTRAINT moderation_actions_command_moderator`.execute(db);
  await sql`ALTER TABLE moderation_actions DROP COLUMN moderator_id`.execute(db);
}
