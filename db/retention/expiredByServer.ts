import { sql, type RawBuilder } from 'kysely';

/** Each plan's cutoff: a server's rows older than its plan's cutoff are expired. */
export type PlanCutoffs = Readonly<Record<string, Date>>;

/** One batch's count, and the server to start the next batch at (null: nothing left from where this one began). */
export interface BatchOutcome {
  deleted: number;
  next: string | null;
}

export interface ExpiredRows {
  table: string;
  /** The moment the retention counts from; the table has an index on (guild_id, this). */
  time: string;
  /** Columns of the table to select (the row's key), beside the server's id as `guild_id`. */
  columns: string[];
  /** More conditions on the table (alias `t`), e.g. only settled records. */
  where?: RawBuilder<unknown>;
}

/**
 * At most `limit` expired rows, server by server in id order from `cursor` (oldest first within a server), each
 * server under its own plan's cutoff. A server costs one probe of the (guild_id, time) index whether it has expired
 * rows or not, so a run passes every server once and never rescans the rows it keeps (a Pro server's rows past
 * Free's cutoff are never read by Free's cutoff).
 */
export function expiredByServer(rows: ExpiredRows, cutoffs: PlanCutoffs, cursor: string, limit: number): RawBuilder<unknown> {
  const plans = sql.join(Object.entries(cutoffs).map(([plan, at]) => sql`(${plan}, ${at.toISOString()}::timestamptz)`));
  const time = sql.ref(`t.${rows.time}`);
  return sql`
    select g.id as guild_id, ${sql.join(rows.columns.map((c) => sql.ref(`x.${c}`)))}
    from guilds g
    join (values ${plans}) as c(plan, cutoff) on c.plan = g.plan
    cross join lateral (
      select ${sql.join(rows.columns.map((c) => sql.ref(`t.${c}`)))} from ${sql.table(rows.table)} t
      where t.guild_id = g.id and ${time} < c.cutoff ${rows.where ? sql`and ${rows.where}` : sql``}
      order by ${time} limit ${limit}
    ) x
    where g.id >= ${cursor}
    order by g.id
    limit ${limit}`;
}

/** A full batch may have left more rows from its last server on; a short one found everything from `cursor`. */
export const batchOutcome = (deleted: number, lastServer: string | null, limit: number): BatchOutcome => ({
  deleted,
  next: deleted < limit ? null : lastServer,
});
