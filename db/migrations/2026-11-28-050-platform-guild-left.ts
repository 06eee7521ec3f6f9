import { sql, type Kysely } from 'kysely';

/**
 * `mirrored_at`: when the bot process last mirrored the server from the platform (GUILD_CREATE). The bot's
 * permissions are computed only from mirrored rows: a server registered by `admin guild create` has placeholder
 * rows (the bot as a member without roles) that say nothing of what Discord would allow.
 *
 * `left_at`: when the bot was removed from a server (Discord's GUILD_DELETE without `unavailable`): the server and everything
 * recorded of it stay, but nothing is asked of the platform there any more until the bot is added again (its next
 * GUILD_CREATE clears it). Each such request would be a 403 counted toward Discord's invalid-request ban.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE platform_guilds ADD COLUMN mirrored_at timestamptz, ADD COLUMN left_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE platform_guilds DROP COLUMN mirrored_at, DROP COLUMN left_at`.execute(db);
}
