import { sql, type Kysely } from 'kysely';

/**
 * Idempotency-Key responses are kept as the exact text that was sent, so a replay returns the same bytes
 * (jsonb reorders keys and drops spacing). Records kept as jsonb become their jsonb text: still the same JSON
 * value, and they expire within 24 h.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table idempotency_records alter column response_body type text using response_body::text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table idempotency_records alter column response_body type jsonb using response_body::jsonb`.execute(db);
}
