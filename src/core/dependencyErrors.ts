import { PlatformRefusedError, PlatformUnavailableError } from './platform.js';

// Connection-level failures of PostgreSQL, Temporal and the platform: the API answers 503 with Retry-After, and
// activities retry them without end (process/outageRetries.ts).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE']);
// PostgreSQL SQLSTATEs for "the server cannot serve now": connection exceptions, shutdown, too many clients.
const PG_UNAVAILABLE = /^(08|57P0[1-3]|53300)/;
// pg's own errors carry no code: a connect timing out, a connection ending under a query, and any later use of
// a client whose connection broke (a rollback after the server went away mid-transaction surfaces this one).
const PG_CONNECTION_LOST = /timeout exceeded when trying to connect|Connection terminated|encountered a connection error and is not queryable|Client was closed and is not queryable/i;
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

export function isDependencyUnavailable(err: unknown): boolean {
  if (err instanceof PlatformUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || PG_UNAVAILABLE.test(e.code))) return true;
  if (e.code === GRPC_UNAVAILABLE || e.code === GRPC_DEADLINE_EXCEEDED) return true;
  if (PG_CONNECTION_LOST.test(e.message)) return true;
  if (err instanceof AggregateError) return err.errors.some(isDependencyUnavailable);
  return e.cause !== undefined && e.cause !== err && isDependencyUnavailable(e.cause);
}

// SQLSTATEs of a statement PostgreSQL gave up on: cancelled at statement_timeout (57014 query_canceled) or tired of
// waiting for a lock at lock_timeout (55P03 lock_not_available). The database is too busy for the request now.
const PG_TIMED_OUT = new Set(['57014', '55P03']);

/**
 * A statement that ran past DATABASE_STATEMENT_TIMEOUT_MS or waited past DATABASE_LOCK_TIMEOUT_MS. The api answers it
 * as it answers an outage (503 with Retry-After: the client's retry is safe, nothing was committed); activities and the
 * bot count it as an ordinary failure, retried a bounded number of times, since a statement that always runs too long
 * would otherwise be retried for ever.
 */
export function isDatabaseTimeout(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && PG_TIMED_OUT.has(e.code)) return true;
  if (err instanceof AggregateError) return err.errors.some(isDatabaseTimeout);
  return e.cause !== undefined && e.cause !== err && isDatabaseTimeout(e.cause);
}

/**
 * A refusal of the platform behind an error (a permission the bot lacks, a request it will never accept). Not an
 * outage: activities never retry it; the API answers it as 503 with a longer Retry-After (api/middleware/errorBoundary.ts).
 */
export function isPlatformRefusal(err: unknown): boolean {
  if (err instanceof PlatformRefusedError) return true;
  if (err instanceof AggregateError) return err.errors.some(isPlatformRefusal);
  const cause = err instanceof Error ? (err as Error & { cause?: unknown }).cause : undefined;
  return cause !== undefined && cause !== err && isPlatformRefusal(cause);
}
