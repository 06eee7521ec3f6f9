import { sql, type RawBuilder } from 'kysely';

/** Each plan's cutoff: a server's rows older than its plan's cutoff are expired. */
export type PlanCutoffs = Readonly<Record<string, Date>>;

/** One batch's count, and where the next batch starts (null: nothing left from where this one began). */
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
 * Where a batch starts: a server id ('' = the first), and optionally `|` and the time its batches have reached in
 * that server. The time saves each batch walking again, in the (guild_id, time) index, the entries of the rows the
 * batches before it deleted: they stay in the index until a vacuum, so from the oldest on a backlog's every batch
 * read more of them than the last (a 10,000,000-row backlog: 500,000 rows per 30 s slice at first, 281,000 after
 * 1,500,000, docs/performance.md).
 */
export function cursorOf(server: string, reached?: Date): string {
  return reached ? `${server}|${reached.toISOString()}` : server;
}

function parseCursor(cursor: string): { server: string; reached: string | null } {
  const [server = '', reached] = cursor.split('|');
  return { server, reached: reached ?? null };
}

/**
 * At most `limit` expired rows, server by server in id order from the cursor's server (oldest first within a
 * server, from the time the cursor reached there), each server under its own plan's cutoff, with the row's time as
 * `at`. A server costs one probe of the (guild_id, time) index whether it has expired rows or not, so a run passes
 * every server once and never rescans the rows it keeps (a Pro server's rows past Free's cutoff are never read by
 * Free's cutoff). A row of the cursor's server older than its time (written late with an old time) waits for the
 * next run, which starts from the first server.
 */
export function expiredByServer(rows: ExpiredRows, cutoffs: PlanCutoffs, cursor: string, limit: number): RawBuilder<unknown> {
  const plans = sql.join(Object.entries(cutoffs).map(([plan, at]) => sql`(${plan}, ${at.toISOString()}::timestamptz)`));
  const time = sql.ref(`t.${rows.time}`);
  const { server, reached } = parseCursor(cursor);
  const fromReached = reached ? sql`and ${time} >= case when g.id = ${server} then ${reached}::timestamptz else '-infinity'::timestamptz end` : sql``;
  return sql`
    select g.id as guild_id, ${sql.join(rows.columns.map((c) => sql.ref(`x.${c}`)))}, x.at
    from guilds g
    join (values ${plans}) as c(plan, cutoff) on c.plan = g.plan
    cross join lateral (
      select ${sql.join(rows.columns.map((c) => sql.ref(`t.${c}`)))}, ${time} as at from ${sql.table(rows.table)} t
      where t.guild_id = g.id and ${time} < c.cutoff ${fromReached} ${rows.where ? sql`and ${rows.where}` : sql``}
      order by ${time} limit ${limit}
    ) x
    where g.id >= ${server}
    order by g.id, x.at
    limit ${limit}`;
}

/**
 * The closing select of a batch whose deleted rows are the CTE `gone` (returning `guild_id` and `at`): how many, the
 * last server, and the time the batch reached there.
 */
export const batchTally = sql`select count(*)::int as deleted, max(guild_id) as last,
  (select max(at) from gone where guild_id = (select max(guild_id) from gone)) as last_at from gone`;

export interface BatchTally {
  deleted: number;
  last: string | null;
  last_at: Date | null;
}

/** A full batch may have left more rows from its last server on, from the time it reached; a short one found everything from its cursor. */
export const batchOutcome = ({ deleted, last, last_at }: BatchTally, limit: number): BatchOutcome => ({
  deleted,
  next: deleted < limit || last === null ? null : cursorOf(last, last_at ?? undefined),
});
