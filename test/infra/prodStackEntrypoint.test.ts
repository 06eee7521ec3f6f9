import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// The real server's start is checked by `npm run stack:prod -- --check` (docs/deployment.md), not here: its
// binary takes about 9 minutes to build. What the stack refuses before it starts anything is checked here.
it.each([
  ['TEMPORAL_SERVER_PATH', 'TEMPORAL_SERVER_PATH=/nonexistent/server is not an executable file.'],
  ['TEMPORAL_SQL_TOOL_PATH', 'TEMPORAL_SQL_TOOL_PATH=/nonexistent/sql is not an executable file.'],
])('npm run stack:prod with %s naming no binary exits 1 saying so', async (setting, message) => {
  const path = setting === 'TEMPORAL_SERVER_PATH' ? '/nonexistent/server' : '/nonexistent/sql';
  const result = await promisify(execFile)(TSX, ['process/entrypoints/prodStack.ts'], { cwd: ROOT, env: { ...process.env, [setting]: path } }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );
  expect(result.code).toBe(1);
  expect(result.stderr.trim().split('\n')).toContain(message);
});

it('refuses an unknown option with exit code 2 and its name', async () => {
  const result = await promisify(execFile)(TSX, ['process/entrypoints/prodStack.ts', '--chek'], { cwd: ROOT }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );
  expect(result.code).toBe(2);
  // Node's own wording follows the option's name, and grew longer in Node 22.
  expect(result.stderr).toMatch(/^error: Unknown option '--chek'.* \(the one option is --check\)\n$/);
});
