import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.js';
import type { ExpiredRows } from './expiredByServer.js';

// When the oldest stored record of a kind comes due: what the retention purge dispatcher sleeps until.

/** The smallest `column` of `table` (through its index), null when the table has none. */
export async function oldestOf(db: Kysely<Database>, table: string, column: string): Promise<Date | null> {
  const { rows: [row] } = await sql<{ at: Date | null }>`select min(${sql.ref(column)})::timestamptz as at from ${sql.table(table)}`.execute(db);
  return row?.at ?? null;
}

/**
 * The first day of `flow_run_quotas` past its retention: a day's count is purged `keepMs` after the day's end (UTC);
 * the table holds a day or two.
 */
export async function firstQuotaDayDue(db: Kysely<Database>, keepMs: number): Promise<Date | null> {
  const { rows: [row] } = await sql<{ at: Date | null }>`
    select ((min(day) + 1)::timestamp at time zone 'UTC') + ${keepMs / 1000}::double precision * interval '1 second' as at from flow_run_quotas`.execute(db);
  return row?.at ?? null;
}

/**
 * When the first of a plan-retained kind's rows comes due: each server's oldest row (one probe of the (guild_id, time)
 * index, as the purge makes) plus its plan's retention. Rows that `where` keeps regardless of age are not counted.
 */
export async function earliestPlanDue(db: Kysely<Database>, rows: Omit<ExpiredRows, 'columns'>, keepDaysByPlan: Readonly<Record<string, number>>): Promise<Date | null> {
  const plans = sql.join(Object.entries(keepDaysByPlan).map(([plan, days]) => sql`(${plan}, ${days}::int)`));
  const time = sql.ref(`t.${rows.time}`);
  const where: RawBuilder<unknown> = rows.where ? sql`and ${rows.where}` : sql``;
  const { rows: [row] } = await sql<{ at: Date | null }>`
    select min(x.at + c.days * interval '1 day') as at
    from guilds g
    join (values ${plans}) as c(plan, days) on c.plan = g.plan
    cross join lateral (
      select ${time} as at from ${sql.table(rows.table)} t
      where t.guild_id = g.id and ${time} is not null ${where}
      order by ${time} limit 1
    ) x`.execute(db);
  return row?.at ?? null;
}
