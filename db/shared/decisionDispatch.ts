import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Records decided by the API whose effects run in a workflow (appeals, application submissions): the
 * same columns in each table (guild_id, number, status, applying, decided_at, workflow_started_at), so the
 * start relay's two queries are written once. The table name is one of these constants, never input.
 */
export type DecidedTable = 'appeals' | 'application_submissions';

export async function markDecisionDispatched(db: Kysely<Database>, table: DecidedTable, guildId: string, number: number, at: Date): Promise<void> {
  await sql`
    update ${sql.table(table)} set workflow_started_at = ${at}
    where guild_id = ${guildId} and number = ${number} and workflow_started_at is null`.execute(db);
}

/** Decided records still applying whose workflow start was not recorded, oldest decision first. */
export async function listUndispatchedDecisions(
  db: Kysely<Database>,
  table: DecidedTable,
  olderThan: Date,
  limit: number,
): Promise<Array<{ guildId: string; number: number; status: string }>> {
  const { rows } = await sql<{ guild_id: string; number: number; status: string }>`
    select guild_id, number, status from ${sql.table(table)}
    where applying and workflow_started_at is null and decided_at < ${olderThan}
    order by decided_at limit ${limit}`.execute(db);
  return rows.map((r) => ({ guildId: r.guild_id, number: r.number, status: r.status }));
}
