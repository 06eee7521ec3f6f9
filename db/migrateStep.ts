import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { SchemaMigration } from './migrations/index.js';

/** Kysely's table of applied migrations (name, timestamp), kept so databases migrated by its Migrator carry on. */
export const MIGRATION_TABLE = 'kysely_migration';

/** lock_not_available (lock_timeout reached) and deadlock_detected: another session had a lock first; a later try may pass. */
const LOCK_CONFLICTS = new Set(['55P03', '40P01']);

export interface RetryNotice {
  name: string;
  attempt: number;
  attempts: number;
  retryInMs: number;
  sqlState: string;
}

export interface StepOptions {
  lockTimeoutMs: number;
  attempts: number;
  backoffMs(attempt: number): number;
  /** Awaited before the pause that precedes the next attempt. */
  onRetry(notice: RetryNotice): Promise<void> | void;
}

const sqlStateOf = (err: unknown) => (err as { code?: unknown }).code;

async function record(conn: Kysely<any>, name: string): Promise<void> {
  await conn.insertInto(MIGRATION_TABLE).values({ name, timestamp: new Date().toISOString() }).execute();
}

/** The migration and its record commit together, or neither; lock_timeout bounds each of its lock waits. */
async function applyInTransaction(conn: Kysely<any>, name: string, migration: SchemaMigration, lockTimeoutMs: number): Promise<void> {
  await conn.transaction().execute(async (trx) => {
    await sql`select set_config('lock_timeout', ${String(lockTimeoutMs)}, true)`.execute(trx);
    await migration.up(trx);
    await record(trx, name);
  });
}

/** Each statement commits by itself (CREATE INDEX CONCURRENTLY); the record only after the last one. */
async function applyOutsideTransaction(conn: Kysely<any>, name: string, migration: SchemaMigration, lockTimeoutMs: number): Promise<void> {
  await sql`select set_config('lock_timeout', ${String(lockTimeoutMs)}, false)`.execute(conn);
  try {
    await migration.up(conn);
    await record(conn, name);
  } finally {
    // On a broken connection this fails too; the migration's own error is the one to report.
    await sql`reset lock_timeout`.execute(conn).catch(() => undefined);
  }
}

/**
 * Applies one migration, trying again (after a pause) when it waited longer than lock_timeout for a lock another
 * session holds: a short wait blocks the queries queued behind it only briefly, where an unbounded one would stall
 * every query on the table for as long as the other session keeps its lock.
 */
export async function applyMigration(conn: Kysely<any>, name: string, migration: SchemaMigration, options: StepOptions): Promise<void> {
  const outside = migration.transaction === false;
  for (let attempt = 1; ; attempt++) {
    try {
      await (outside ? applyOutsideTransaction : applyInTransaction)(conn, name, migration, options.lockTimeoutMs);
      return;
    } catch (err) {
      const sqlState = sqlStateOf(err);
      if (typeof sqlState !== 'string' || !LOCK_CONFLICTS.has(sqlState)) {
        throw new Error(`migration ${name} failed: ${(err as Error).message}${outside ? ' (it runs outside a transaction: what it did before the failure stays)' : ''}`, { cause: err });
      }
      if (attempt >= options.attempts) {
        throw new Error(
          `migration ${name} gave up after ${attempt} attempts: each waited more than ${options.lockTimeoutMs} ms for a lock another session holds ` +
            `(SQLSTATE ${sqlState}; pg_locks and pg_stat_activity show which)`,
          { cause: err },
        );
      }
      const retryInMs = options.backoffMs(attempt);
      await options.onRetry({ name, attempt, attempts: options.attempts, retryInMs, sqlState });
      await sleep(retryInMs);
    }
  }
}
