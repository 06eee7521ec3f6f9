import { readFileSync } from 'node:fs';

/**
 * The settings that hold a secret. Each may instead name a file in `<NAME>_FILE` (a mounted Kubernetes or Docker
 * secret), so the value never sits in the environment, where `ps e`, crash reports and child processes can see it.
 */
export const SECRET_SETTINGS = ['DATABASE_URL', 'DATABASE_DIRECT_URL', 'TEMPORAL_API_KEY', 'DISCORD_TOKEN', 'DISCORD_CLIENT_SECRET'] as const;

type Env = Record<string, string | undefined>;

export interface SecretFileIssue {
  /** The variable the line names (`DATABASE_URL_FILE`). */
  setting: string;
  /** The setting whose value is then missing (`DATABASE_URL`), so the schema does not report it a second time. */
  secret: string;
  message: string;
}

/** A file's value without the line break(s) an editor or `echo` leaves at its end. */
const withoutTrailingNewlines = (text: string) => text.replace(/(\r?\n)+$/, '');

/**
 * The environment with each `<NAME>_FILE` read into `<NAME>`, and what was refused: both set (which one would win is
 * a guess an operator should not have to make), a file that cannot be read, or an empty one. Messages name the
 * variable and the path, never the content.
 */
export function readSecretFiles(env: Env, read: (path: string) => string = (path) => readFileSync(path, 'utf8')): { env: Env; issues: SecretFileIssue[] } {
  const resolved: Env = { ...env };
  const issues: SecretFileIssue[] = [];
  for (const secret of SECRET_SETTINGS) {
    const setting = `${secret}_FILE`;
    const path = env[setting];
    if (path === undefined) continue;
    if (env[secret] !== undefined) {
      issues.push({ setting, secret, message: `must not be set together with ${secret} (set one of the two)` });
      continue;
    }
    let value: string;
    try {
      value = withoutTrailingNewlines(read(path));
    } catch (err) {
      issues.push({ setting, secret, message: `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
      continue;
    }
    if (value === '') issues.push({ setting, secret, message: `${path} is empty` });
    else resolved[secret] = value;
  }
  return { env: resolved, issues };
}
