import { sql, type Kysely } from 'kysely';

/**
 * Kysely's Migrator took this session advisory lock: keeping its id means a migrate of a release that still used the
 * Migrator and one of this runner never run at the same time.
 */
const MIGRATION_LOCK_ID = sql.lit(BigInt('3853314791062309107'));

/** How long a migrate waits for another one (a slow index build, a Job started twice) before it fails. */
export const MIGRATION_LOCK_WAIT_MS = 3_600_000;

/**
 * Takes the lock for the session of `conn`, which must be one server connection for the whole run (a session lock is
 * what a per-migration transaction cannot hold): PostgreSQL itself or a session pooler, never a transaction pooler,
 * which would hand the lock's session to someone else (DATABASE_DIRECT_URL). `onWait` is called when another holds it.
 */
export async function acquireMigrationLock(conn: Kysely<any>, onWait: () => Promise<void> | void): Promise<void> {
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${MIGRATION_LOCK_ID}) as locked`.execute(conn);
  if (rows[0]!.locked) return;
  await onWait();
  await sql`select set_config('lock_timeout', ${String(MIGRATION_LOCK_WAIT_MS)}, false)`.execute(conn);
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(conn);
  } finally {
    await sql`reset lock_timeout`.execute(conn);
  }
}

export async function releaseMigrationLock(conn: Kysely<any>): Promise<void> {
  await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(conn);
}
