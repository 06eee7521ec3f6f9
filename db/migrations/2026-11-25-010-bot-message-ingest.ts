import { sql, type Kysely } from 'kysely';

/**
 * What the bot needs to count members' messages (issue 24): the per-user cooldown between two messages that earn
 * XP (a server setting, 60 s by default) and, per member, the time of their last message that earned it; and the
 * open tickets by channel, looked up for every message to store the ones written in a ticket.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE level_settings ADD COLUMN message_cooldown_seconds integer NOT NULL DEFAULT 60`.execute(db);
  await sql`ALTER TABLE level_members ADD COLUMN last_message_xp_at timestamptz`.execute(db);
  await sql`CREATE INDEX tickets_open_channel_idx ON tickets (guild_id, channel_id) WHERE status <> 'closed'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX tickets_open_channel_idx`.execute(db);
  await sql`ALTER TABLE level_members DROP COLUMN last_message_xp_at`.execute(db);
  await sql`ALTER TABLE level_settings DROP COLUMN message_cooldown_seconds`.execute(db);
}
