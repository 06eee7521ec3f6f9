import { sql, type Kysely } from 'kysely';

/**
 * `announce_to`: where a level-up is announced: `channel` (announce_channel_id), `current` (the channel of the
 * message that reached the level), `dm` (the member's DMs) or `off`. Until now a channel meant on and none off, so
 * rows keep what they did. level_settings holds a row per server, so the update and the check are quick.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE level_settings ADD COLUMN announce_to text NOT NULL DEFAULT 'off'
    CHECK (announce_to IN ('channel', 'current', 'dm', 'off'))`.execute(db);
  await sql`UPDATE level_settings SET announce_to = 'channel' WHERE announce_channel_id IS NOT NULL`.execute(db);
  await sql`ALTER TABLE level_settings ADD CONSTRAINT level_settings_announce_channel
    CHECK (announce_to <> 'channel' OR announce_channel_id IS NOT NULL)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`UPDATE level_settings SET announce_channel_id = NULL WHERE announce_to <> 'channel'`.execute(db);
  await sql`ALTER TABLE level_settings DROP CONSTRAINT level_settings_announce_channel, DROP COLUMN announce_to`.execute(db);
}
