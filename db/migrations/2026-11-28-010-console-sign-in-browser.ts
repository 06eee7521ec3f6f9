import { sql, type Kysely } from 'kysely';

/**
 * Binds a pending OAuth2 sign-in to the browser that began it: `browser_hash` is the SHA-256 of a nonce kept in that
 * browser's short-lived sign-in cookie, and the callback must present the nonce (login CSRF, ASVS 5.0 10.1.2).
 * Nullable so the previous release keeps inserting during a roll; a row without it can never complete a sign-in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE console_sign_ins ADD COLUMN browser_hash bytea`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE console_sign_ins DROP COLUMN browser_hash`.execute(db);
}
