import { sql, type Kysely } from 'kysely';

/**
 * What a server's members earn, until now fixed in code (src/levels/activityXp.ts): XP per counted message and per
 * voice minute, and the channels and roles whose messages earn nothing. The defaults are the fixed values, so
 * existing servers earn what they did. The bounds are the console's and the CLI's (src/levels/levelRules.ts); the
 * checks keep a bad row out whatever writes it. level_settings holds a row per server: adding the columns is quick.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE level_settings
    ADD COLUMN xp_per_message integer NOT NULL DEFAULT 20 CHECK (xp_per_message BETWEEN 0 AND 1000),
    ADD COLUMN xp_per_voice_minute integer NOT NULL DEFAULT 10 CHECK (xp_per_voice_minute BETWEEN 0 AND 1000),
    ADD COLUMN no_xp_channel_ids text[] NOT NULL DEFAULT '{}',
    ADD COLUMN no_xp_role_ids text[] NOT NULL DEFAULT '{}'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE level_settings DROP COLUMN xp_per_message, DROP COLUMN xp_per_voice_minute,
    DROP COLUMN no_xp_channel_ids, DROP COLUMN no_xp_role_ids`.execute(db);
}
