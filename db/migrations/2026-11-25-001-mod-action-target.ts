import { sql, type Kysely } from 'kysely';

/**
 * Whether a kick's or ban's target was a member when the action began, and their name: the effect removes them,
 * so the leave it makes (members.left, the invite join moved to `left`) is recorded from what was read before.
 * Null: not read yet, or not a member (a ban of a user outside the server is no leave).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE moderation_actions ADD COLUMN target_member jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE moderation_actions DROP COLUMN target_member`.execute(db);
}
