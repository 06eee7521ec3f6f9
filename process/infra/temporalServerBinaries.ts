import { execFile } from 'node:child_process';
import { access, constants, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The release this project's production-like stack runs: v1.32 needs a newer Go than these machines have. */
export const TEMPORAL_SERVER_VERSION = 'v1.31.2';

/** Where `go install` puts the two binaries (it names them after their package folders). */
export const defaultTemporalServerCacheDir = () => join(homedir(), '.cache', 'community-bot', `temporal-server-${TEMPORAL_SERVER_VERSION}`);

const BINARIES = {
  server: { file: 'server', pkg: 'go.temporal.io/server/cmd/server', setting: 'TEMPORAL_SERVER_PATH' },
  sqlTool: { file: 'sql', pkg: 'go.temporal.io/server/cmd/tools/sql', setting: 'TEMPORAL_SQL_TOOL_PATH' },
} as const;
type BinaryName = keyof typeof BINARIES;

export interface TemporalServerBinaries {
  server: string;
  /** temporal-sql-tool, which carries the PostgreSQL schemas. */
  sqlTool: string;
}

export class TemporalServerBinaryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemporalServerBinaryError';
  }
}

export interface BinarySettings {
  serverPath?: string;
  sqlToolPath?: string;
  /** Searched for `go` when a binary has to be built (the process's PATH, from config). */
  binarySearchPath: string;
}

const isExecutable = (path: string) =>
  access(path, constants.X_OK).then(
    () => true,
    () => false,
  );

/**
 * The server and sql-tool binaries: the configured path of each (the only place looked at when set), else the
 * cache folder, else built there with `go install` from the Go module proxy (about 9 minutes on two cores, once).
 */
export async function resolveTemporalServerBinaries(
  settings: BinarySettings,
  log: (line: string) => void,
  cacheDir = defaultTemporalServerCacheDir(),
): Promise<TemporalServerBinaries> {
  const explicit: Record<BinaryName, string | undefined> = { server: settings.serverPath, sqlTool: settings.sqlToolPath };
  const found: Partial<Record<BinaryName, string>> = {};
  for (const name of Object.keys(BINARIES) as BinaryName[]) {
    const path = explicit[name];
    if (path && !(await isExecutable(path))) throw new TemporalServerBinaryError(`${BINARIES[name].setting}=${path} is not an executable file.`);
    const cached = join(cacheDir, BINARIES[name].file);
    found[name] = path ?? ((await isExecutable(cached)) ? cached : undefined);
  }
  const missing = (Object.keys(BINARIES) as BinaryName[]).filter((name) => !found[name]);
  for (const name of missing) found[name] = await buildBinary(name, settings.binarySearchPath, cacheDir, log);
  return { server: found.server!, sqlTool: found.sqlTool! };
}

async function buildBinary(name: BinaryName, searchPath: string, cacheDir: string, log: (line: string) => void): Promise<string> {
  const { pkg, file, setting } = BINARIES[name];
  const target = `${pkg}@${TEMPORAL_SERVER_VERSION}`;
  await mkdir(cacheDir, { recursive: true });
  log(`Building ${target} into ${cacheDir} with go install (about 9 minutes for the server, once)...`);
  try {
    // The rest of the environment (HOME, GOPROXY, GOFLAGS) is the operator's and goes to go as it is.
    await run('go', ['install', target], { env: { ...process.env, PATH: searchPath, GOBIN: cacheDir }, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    const why = e.code === 'ENOENT' ? 'go is not on PATH' : (e.stderr ?? e.message).trim().split('\n').slice(-3).join(' | ');
    throw new TemporalServerBinaryError(
      `Could not build ${target} (${why}). Install Go (1.26.4 or newer, as its go.mod asks) and try again, or set ${setting} to a built ${file} binary.`,
    );
  }
  return join(cacheDir, file);
}
