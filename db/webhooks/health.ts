import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

// Read through webhook_attempts (endpoint_id, attempted_at): one index range per endpoint, whatever its history.

export interface AttemptTally {
  attempts: number;
  /** Answered 2xx. */
  delivered: number;
  /** Answered with another status (a redirect included: never followed). */
  rejected: number;
  /** No HTTP answer: timeout, refused address, connection or TLS failure. */
  noAnswer: number;
}

export interface LastAttempt {
  statusCode: number | null;
  error: string | null;
  attemptedAt: Date;
}

const tally = (r: { attempts: string; delivered: string; rejected: string }): AttemptTally => {
  const attempts = Number(r.attempts);
  const delivered = Number(r.delivered);
  const rejected = Number(r.rejected);
  return { attempts, delivered, rejected, noAnswer: attempts - delivered - rejected };
};

const TALLY = sql<string>`count(*) as attempts,
  count(*) filter (where status_code between 200 and 299) as delivered,
  count(*) filter (where status_code is not null and status_code not between 200 and 299) as rejected`;

/** Each endpoint's attempts in [from, to], by outcome; endpoints without any are left out. */
export async function tallyAttempts(db: Kysely<Database>, endpointIds: number[], from: Date, to: Date): Promise<Map<number, AttemptTally>> {
  if (endpointIds.length === 0) return new Map();
  const { rows } = await sql<{ endpoint_id: number; attempts: string; delivered: string; rejected: string }>`
    select endpoint_id, ${TALLY}
    from webhook_attempts
    where endpoint_id = any(${endpointIds}::int[]) and attempted_at >= ${from} and attempted_at <= ${to}
    group by endpoint_id
  `.execute(db);
  return new Map(rows.map((r) => [r.endpoint_id, tally(r)]));
}

/** Each endpoint's latest attempt up to `to`. */
export async function lastAttempts(db: Kysely<Database>, endpointIds: number[], to: Date): Promise<Map<number, LastAttempt>> {
  if (endpointIds.length === 0) return new Map();
  const { rows } = await sql<{ id: number; status_code: number | null; error: string | null; attempted_at: Date }>`
    select e.id, l.status_code, l.error, l.attempted_at
    from unnest(${endpointIds}::int[]) as e(id)
    join lateral (
      select status_code, error, attempted_at from webhook_attempts
      where endpoint_id = e.id and attempted_at <= ${to}
      order by attempted_at desc limit 1
    ) l on true
  `.execute(db);
  return new Map(rows.map((r) => [r.id, { statusCode: r.status_code, error: r.error, attemptedAt: r.attempted_at }]));
}

/** One endpoint's attempts in [from, to] by outcome per hour (hours since the Unix epoch, UTC); empty hours left out. */
export async function tallyAttemptsByHour(db: Kysely<Database>, endpointId: number, from: Date, to: Date): Promise<Map<number, AttemptTally>> {
  const { rows } = await sql<{ hour: string; attempts: string; delivered: string; rejected: string }>`
    select floor(extract(epoch from attempted_at) / 3600)::bigint as hour, ${TALLY}
    from webhook_attempts
    where endpoint_id = ${endpointId} and attempted_at >= ${from} and attempted_at <= ${to}
    group by 1
  `.execute(db);
  return new Map(rows.map((r) => [Number(r.hour), tally(r)]));
}
