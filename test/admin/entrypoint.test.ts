import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTestGuild } from '../harness/fixtures.js';
import { useTestDatabase } from '../harness/database.js';

const database = useTestDatabase();
// npm may warn about the machine's npm config on stderr; only the CLI's own lines matter.
const cliLines = (stderr: string) => stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'));

const admin = (...argv: string[]) =>
  promisify(execFile)('npx', ['tsx', 'process/entrypoints/admin.ts', ...argv], { env: { ...process.env, DATABASE_URL: database.url } });

describe('npm run admin', () => {
  it('runs as a process against DATABASE_URL, with exit code 1 when refused', async () => {
    const guild = await createTestGuild(database.db, { plan: 'free', name: 'Spawned' });
    const { stdout, stderr } = await admin('guild', 'show', '--id', guild.id, '--json');
    expect(cliLines(stderr)).toEqual([]);
    expect(JSON.parse(stdout)).toMatchObject({ id: guild.id, name: 'Spawned', plan: 'free', ownerId: guild.ownerId, activeKeyCount: 0 });

    const failure = await admin('guild', 'show', '--id', '100000000000000009', '--json').then(
      () => undefined,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failure).toMatchObject({ code: 1, stdout: '' });
    expect(cliLines(failure!.stderr).map((line) => JSON.parse(line))).toEqual([{ error: 'GUILD_NOT_FOUND', message: 'Guild 100000000000000009 does not exist.' }]);
  });
});
