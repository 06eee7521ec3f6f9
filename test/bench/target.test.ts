import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Refused before anything starts (the bench's PostgreSQL port is shared machine-wide).
it('npm run bench refuses a --target other than dev or prod with exit code 2', async () => {
  const result = await promisify(execFile)(TSX, ['bench/run.ts', '--target', 'staging', '--only', 'xp-latency'], { cwd: ROOT }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );
  expect(result).toEqual({ code: 2, stderr: '--target must be dev or prod (got "staging").\n' });
});
