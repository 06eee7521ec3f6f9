import { sql, type Kysely } from 'kysely';

/**
 * A rolled API key points at the key that replaced it (same name and scopes, a new secret). The old key keeps
 * working until the expiry the roll set on it (the manager's choice: now, 1 hour, 24 hours or 7 days), then is
 * refused as expired; while it lasts it does not count toward the plan's active keys, and the replacement cannot
 * be rolled again (src/keys/keyRoll.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE api_keys ADD COLUMN rolled_into integer REFERENCES api_keys (id)`.execute(db);
  await sql`CREATE INDEX api_keys_rolled_into ON api_keys (rolled_into) WHERE rolled_into IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE api_keys DROP COLUMN rolled_into`.execute(db);
}
