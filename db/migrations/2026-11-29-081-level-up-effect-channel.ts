import { sql, type Kysely } from 'kysely';

/**
 * `channel_id`: the channel of the message that reached the level, where a server whose level settings say
 * `current` announces it. Null for activity with no channel (`simulate level-activity` without --channel) and for
 * rows written before it (or by a release that does not know it, during a roll), which then announce nowhere under
 * `current`, as a staff change does. Nullable and without a default: adding it rewrites nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE level_up_effects ADD COLUMN channel_id text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE level_up_effects DROP COLUMN channel_id`.execute(db);
}
