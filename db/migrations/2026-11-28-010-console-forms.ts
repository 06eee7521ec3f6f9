import { sql, type Kysely } from 'kysely';

/**
 * The console's safe forms. `console_form_submissions` holds each one-time form token a POST took (its nonce's
 * SHA-256) with the page the POST answered: a second POST of the same form (reload, Back and resubmit, a double
 * click) finds the row and is sent to that page instead of acting again. `console_flashes` keeps a secret shown
 * once (a new API key, a webhook signing secret) for the one result page after the redirect, sealed with
 * AES-256-GCM under a key derived from the session token, which the database never holds (only its hash). Both end
 * with their session (ON DELETE CASCADE), which the hourly purge deletes at its absolute expiry at the latest.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE console_form_submissions (
      nonce_hash bytea PRIMARY KEY,
      session_hash bytea NOT NULL REFERENCES console_sessions (token_hash) ON DELETE CASCADE,
      location text,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX console_form_submissions_session ON console_form_submissions (session_hash)`.execute(db);
  await sql`
    CREATE TABLE console_flashes (
      session_hash bytea NOT NULL REFERENCES console_sessions (token_hash) ON DELETE CASCADE,
      path text NOT NULL,
      iv bytea NOT NULL,
      sealed bytea NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (session_hash, path)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE console_flashes`.execute(db);
  await sql`DROP TABLE console_form_submissions`.execute(db);
}
