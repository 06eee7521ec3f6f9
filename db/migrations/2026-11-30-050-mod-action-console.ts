import { sql, type Kysely } from 'kysely';

/**
 * Moderation actions asked from the web console (source `console`) are taken in the name of the signed-in manager,
 * whose permissions and roles are checked when the action runs: like a command's, such an action names its moderator.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE moderation_actions DROP CONSTRAINT moderation_actions_command_moderator`.execute(db);
  await sql`
    ALTER TABLE moderation_actions ADD CONSTRAINT moderation_actions_staff_moderator
    CHECK (source NOT IN ('command', 'console') OR moderator_id IS NOT NULL)
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE moderation_actions DROP CONSTRAINT moderation_actions_staff_moderator`.execute(db);
  await sql`
    ALTER TABLE moderation_actions ADD CONSTRAINT moderation_actions_command_moderator
    CHECK (source <> 'command' OR moderator_id IS NOT NULL)
  `.execute(db);
}
