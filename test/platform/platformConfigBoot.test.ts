import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The api and the worker stop at start on a refused platform setting, with the line that names it and exit code 2.

const start = (entrypoint: string, env: Record<string, string>) =>
  promisify(execFile)('npx', ['tsx', `process/entrypoints/${entrypoint}.ts`], { env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', ...env } }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );
const ownLines = (stderr: string) => stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'));

describe('start-up with PLATFORM=discord', () => {
  it.each(['api', 'worker'])('%s without DISCORD_TOKEN prints the setting and exits 2', async (entrypoint) => {
    const { code, stderr } = await start(entrypoint, { PLATFORM: 'discord', DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect(code).toBe(2);
    expect(ownLines(stderr)).toEqual(['error: Invalid configuration:', '  DISCORD_TOKEN: must be set with PLATFORM=discord (the bot token from the Developer Portal)']);
  });

  it('a malformed token is named, never printed', async () => {
    const { code, stderr } = await start('api', { PLATFORM: 'discord', DISCORD_TOKEN: 'Bot secret-token-value' });
    expect(code).toBe(2);
    expect(ownLines(stderr)).toEqual(['error: Invalid configuration:', '  DISCORD_TOKEN: is not a bot token (three dot-separated parts, without the "Bot " prefix)']);
    expect(stderr).not.toContain('secret-token-value');
  });
});
