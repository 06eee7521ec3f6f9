import { loadConfig, type Config } from '../../src/core/config.js';

/**
 * The config of a starting process, or its end: a refused setting is printed as the lines that name it (no stack),
 * and the process exits with 2 before anything starts.
 */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(2);
  }
}
