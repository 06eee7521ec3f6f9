import { sql, type Kysely } from 'kysely';
import { acquireMigrationLock, releaseMigrationLock } from './migrateLock.js';
import { applyMigration, MIGRATION_TABLE, type RetryNotice } from './migrateStep.js';
import { migrations as allMigrations, type SchemaMigration } from './migrations/index.js';

export type MigrationEvent =
  | { type: 'waiting-for-lock' }
  | { type: 'lock-timeout'; notice: RetryNotice }
  | { type: 'applied'; name: string };

export interface MigrateOptions {
  /** Tests give their own; every release's are db/migrations/index.ts's. */
  migrations?: Record<string, SchemaMigration>;
  /** lock_timeout of each migration's statements (MIGRATION_LOCK_TIMEOUT_MS). */
  lockTimeoutMs?: number;
  /** Tries of a migration that times out on a lock before the run fails (MIGRATION_ATTEMPTS). */
  attempts?: number;
  /** The pause after the n-th timed-out try. */
  backoffMs?: (attempt: number) => number;
  /** Awaited: the run goes on once it resolves. */
  onEvent?: (event: MigrationEvent) => Promise<void> | void;
}

export const MIGRATION_DEFAULTS = { lockTimeoutMs: 3_000, attempts: 10 } as const;

/** 1 s, 2 s, 4 s ... up to 30 s: time for the holder of the lock (a long query, a vacuum) to finish. */
const exponentialBackoff = (attempt: number) => Math.min(1_000 * 2 ** (attempt - 1), 30_000);

async function ensureMigrationTable(conn: Kysely<any>): Promise<void> {
  await conn.schema
    .createTable(MIGRATION_TABLE)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (col) => col.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (col) => col.notNull())
    .execute();
}

/** The names still to apply, in order; refuses a database that has applied one this release does not know or skipped one. */
async function pendingMigrations(conn: Kysely<any>, names: string[]): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)} order by name`.execute(conn);
  const applied = rows.map((row) => row.name);
  const unknown = applied.filter((name) => !names.includes(name));
  if (unknown.length) throw new Error(`the database has applied migrations this release does not have: ${unknown.join(', ')} (a newer release migrated it)`);
  const last = applied.at(-1);
  const pending = names.filter((name) => !applied.includes(name));
  const skipped = last === undefined ? [] : pending.filter((name) => name < last);
  if (skipped.length) throw new Error(`migrations sort before the last applied one (${last}) but were never applied: ${skipped.join(', ')}; rename them to sort after it`);
  return pending;
}

/**
 * Applies every pending migration, each in a transaction of its own (or none, for those that say so) under a
 * lock_timeout with bounded retries, holding the migration lock for the whole run on one connection of `db`.
 * A failure leaves the migrations before it applied and recorded, and itself not recorded.
 */
export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const migrations = options.migrations ?? allMigrations;
  const onEvent = options.onEvent ?? (() => undefined);
  const step = {
    lockTimeoutMs: options.lockTimeoutMs ?? MIGRATION_DEFAULTS.lockTimeoutMs,
    attempts: options.attempts ?? MIGRATION_DEFAULTS.attempts,
    backoffMs: options.backoffMs ?? exponentialBackoff,
    onRetry: (notice: RetryNotice) => onEvent({ type: 'lock-timeout', notice }),
  };
  return db.connection().execute(async (conn) => {
    await acquireMigrationLock(conn, () => onEvent({ type: 'waiting-for-lock' }));
    try {
      await ensureMigrationTable(conn);
      const applied: string[] = [];
      for (const name of await pendingMigrations(conn, Object.keys(migrations).sort())) {
        await applyMigration(conn, name, migrations[name]!, step);
        applied.push(name);
        await onEvent({ type: 'applied', name });
      }
      return { applied };
    } finally {
      // A broken connection fails here too, and its session's end released the lock already; the run's own error counts.
      await releaseMigrationLock(conn).catch(() => undefined);
    }
  });
}
