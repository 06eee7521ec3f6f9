import { sql, type Kysely } from 'kysely';

/**
 * What the console's endpoint pages need (docs/console.md, Endpoints):
 * - an endpoint's description, edited with its URL and event types;
 * - the secret it replaced at a rotation with an overlap, and when that one stops signing;
 * - each attempt's request headers (event id, timestamp, signature: an HMAC, nothing secret), shown beside its answer;
 * - each attempt's endpoint, so the health of the last 24 hours and the chart by hour read one index range instead of
 *   every delivery the endpoint ever had. Attempts logged before this migration have none and count in no health
 *   figure; after a day the figures are whole.
 * Every column is nullable without a default, so adding it does not rewrite the tables; the partial index starts empty.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('description', 'text')
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .execute();
  await db.schema.alterTable('webhook_attempts').addColumn('request_headers', 'jsonb').addColumn('endpoint_id', 'integer').execute();
  await sql`CREATE INDEX webhook_attempts_endpoint_time ON webhook_attempts (endpoint_id, attempted_at) WHERE endpoint_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX webhook_attempts_endpoint_time`.execute(db);
  await db.schema.alterTable('webhook_attempts').dropColumn('endpoint_id').dropColumn('request_headers').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('previous_secret_expires_at').dropColumn('previous_secret').dropColumn('description').execute();
}
