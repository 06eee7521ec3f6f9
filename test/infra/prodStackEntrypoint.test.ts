import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run stack:prod` as a process: its exit code and what it wrote on stderr. */
const runStack = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)(TSX, ['process/entrypoints/prodStack.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );

// The real server's start is checked by `npm run stack:prod -- --check` (docs/deployment.md), not here: its
// binary takes about 9 minutes to build. What the stack refuses before it starts anything is checked here.
it.each([
  ['TEMPORAL_SERVER_PATH', '/nonexistent/server'],
  ['TEMPORAL_SQL_TOOL_PATH', '/nonexistent/sql'],
])('with %s naming no binary it exits 1 saying so', async (setting, path) => {
  const result = await runStack([], { [setting]: path });
  expect(result.code).toBe(1);
  expect(result.stderr.trim().split('\n')).toContain(`${setting}=${path} is not an executable file.`);
});

it('refuses an unknown option with exit code 2 and its name', async () => {
  const result = await runStack(['--chek']);
  expect(result.code).toBe(2);
  // Node's own wording follows the option's name, and grew longer in Node 22.
  expect(result.stderr).toMatch(/^error: Unknown option '--chek'.* \(the one option is --check\)\n$/);
});

it('refuses an invalid setting with exit code 2 before anything starts', async () => {
  const result = await runStack([], { TEMPORAL_HISTORY_SHARDS: '0' });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^error: Invalid configuration:\n {2}TEMPORAL_HISTORY_SHARDS: /);
});
