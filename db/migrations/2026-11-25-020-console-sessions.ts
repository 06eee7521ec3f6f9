import { sql, type Kysely } from 'kysely';

/**
 * The web console's sessions, kept server-side: the cookie holds a random token and only its SHA-256 is stored,
 * so a copy of this table signs nobody in. `guild_ids` is what Discord's OAuth2 listed as manageable at sign-in
 * (null for the local platform's development sign-in). Pending OAuth2 sign-ins keep their `state` hash and PKCE
 * verifier for a few minutes. `api_keys.last_used_at` keeps, to the minute, the last rate-limit window a key was
 * counted in once the hourly purge removes that window (the request path writes nothing more for it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE console_sessions (
      token_hash bytea PRIMARY KEY,
      user_id text NOT NULL,
      user_name text NOT NULL,
      guild_ids text[],
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX console_sessions_expires ON console_sessions (expires_at)`.execute(db);
  await sql`
    CREATE TABLE console_sign_ins (
      state_hash bytea PRIMARY KEY,
      code_verifier text NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE api_keys DROP COLUMN last_used_at`.execute(db);
  await sql`DROP TABLE console_sign_ins`.execute(db);
  await sql`DROP TABLE console_sessions`.execute(db);
}
