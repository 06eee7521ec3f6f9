import { sql, type Kysely } from 'kysely';

/**
 * The bot's snapshot of a server's invites and their use counts: a join is attributed to the invite whose count
 * rose since the snapshot (Discord's GUILD_MEMBER_ADD names no invite). `deleted_at` keeps an invite Discord
 * deleted (INVITE_DELETE, or its last allowed use) until the next join has been compared with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE invite_snapshots (
      guild_id text NOT NULL,
      code text NOT NULL,
      inviter_id text,
      channel_id text,
      uses integer NOT NULL,
      max_uses integer NOT NULL,
      deleted_at timestamptz,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (guild_id, code)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE invite_snapshots`.execute(db);
}
