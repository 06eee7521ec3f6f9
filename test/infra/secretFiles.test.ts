import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { SECRET_SETTINGS } from '../../src/core/settings/secretFiles.js';

// Secrets from mounted files (`<NAME>_FILE`): read, stripped of the trailing line break, refused with a line naming
// the variable (never the content) when both forms are set, the file cannot be read or is empty.

const dir = mkdtempSync(join(tmpdir(), 'cb-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const secretFile = (content: string) => {
  const path = join(dir, `secret-${++files}`);
  writeFileSync(path, content);
  return path;
};

const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';
const settingOf = {
  DATABASE_URL: (c: ReturnType<typeof loadConfig>) => c.database.url,
  DATABASE_DIRECT_URL: (c: ReturnType<typeof loadConfig>) => c.database.directUrl,
  TEMPORAL_API_KEY: (c: ReturnType<typeof loadConfig>) => c.temporal.apiKey,
  DISCORD_TOKEN: (c: ReturnType<typeof loadConfig>) => (c.platform.kind === 'discord' ? c.platform.token : undefined),
  DISCORD_CLIENT_SECRET: (c: ReturnType<typeof loadConfig>) => c.console.discordOAuth?.clientSecret,
};
const valueOf = { DATABASE_URL: 'postgres://app:pw@db:5432/app', DATABASE_DIRECT_URL: 'postgres://app:pw@db-direct:5432/app', TEMPORAL_API_KEY: 'key-123', DISCORD_TOKEN: TOKEN, DISCORD_CLIENT_SECRET: 'client-secret' };
// What each secret needs beside it to be used at all.
const around: Record<string, Record<string, string>> = {
  DISCORD_TOKEN: { PLATFORM: 'discord' },
  DISCORD_CLIENT_SECRET: { DISCORD_CLIENT_ID: '123456789012345678', CONSOLE_REDIRECT_URI: 'https://bot.example/console/oauth/callback' },
};

describe.each(SECRET_SETTINGS.map((name) => [name]))('%s_FILE', (name) => {
  it('gives the file content without its trailing line break', () => {
    const config = loadConfig({ ...around[name], [`${name}_FILE`]: secretFile(`${valueOf[name]}\n`) });
    expect(settingOf[name](config)).toBe(valueOf[name]);
    expect(settingOf[name](loadConfig({ ...around[name], [`${name}_FILE`]: secretFile(`${valueOf[name]}\r\n`) }))).toBe(valueOf[name]);
  });

  it('is refused together with the variable itself', () => {
    expect(() => loadConfig({ ...around[name], [name]: valueOf[name], [`${name}_FILE`]: secretFile(valueOf[name]) })).toThrow(
      new Error(`Invalid configuration:\n  ${name}_FILE: must not be set together with ${name} (set one of the two)`),
    );
  });

  it.each([
    ['a missing file', () => join(dir, 'missing'), (path: string) => `cannot read ${path} (ENOENT)`],
    ['a directory', () => dir, (path: string) => `cannot read ${path} (EISDIR)`],
    ['an empty file', () => secretFile('\n'), (path: string) => `${path} is empty`],
  ])('is refused for %s, in one line that names the file and no other about the secret', (_, pathOf, message) => {
    const path = pathOf();
    expect(() => loadConfig({ ...around[name], [`${name}_FILE`]: path })).toThrow(new Error(`Invalid configuration:\n  ${name}_FILE: ${message(path)}`));
  });
});

it('reports a refused file beside the other settings refused, in one round', () => {
  const path = join(dir, 'missing');
  expect(() => loadConfig({ PLATFORM: 'discord', DISCORD_TOKEN_FILE: path, LOG_LEVEL: 'loud' })).toThrow(
    new Error(`Invalid configuration:\n  DISCORD_TOKEN_FILE: cannot read ${path} (ENOENT)\n  LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"`),
  );
});

it('stops migrate with exit code 2 and the line, before it connects anywhere', async () => {
  const path = join(dir, 'missing');
  const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'process/entrypoints/migrate.ts'], { env: { PATH: process.env.PATH!, DATABASE_URL_FILE: path } });
  await expect(run).rejects.toMatchObject({ code: 2, stdout: '', stderr: `error: Invalid configuration:\n  DATABASE_URL_FILE: cannot read ${path} (ENOENT)\n` });
}, 60_000);
