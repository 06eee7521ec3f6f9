import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConsoleRouter } from '../../api/console/consoleState.js';
import { assetRoutes } from '../../api/console/assets.js';

// `node dist/process/entrypoints/checkBuild.js` (`npm run check:build`): proves the emitted JavaScript runs as the image
// runs it, with no database, Temporal or network. The Dockerfile runs it in the image itself (production packages only,
// the image's Node); .ci/run on the build with the production packages alone, on Node 24 and on the machine's Node.
// Every failure is a line on stderr and exit 1.

const here = fileURLToPath(new URL('.', import.meta.url));
const SERVICES = ['api', 'worker', 'bot', 'discordEgress', 'migrate'];

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    // Only PATH from outside: the outcome must not depend on the settings of the machine running the check.
    const child = spawn(process.execPath, [join(here, script), ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const failures: string[] = [];
const check = (ok: boolean, what: string, outcome?: Outcome) => {
  if (!ok) failures.push(`${what}${outcome ? ` (exit ${outcome.code}): ${outcome.stderr.trim().split('\n').slice(0, 6).join(' | ')}` : ''}`);
};

// A refused setting ends a process with exit 2 only after its module graph resolved and loaded (the config is read by
// the entrypoint's own body, after its imports; the api's and worker's second half is imported after tracing): a
// missing file or package in the build fails with exit 1 and ERR_MODULE_NOT_FOUND instead.
await Promise.all(
  SERVICES.map(async (name) => {
    const outcome = await run(`${name}.js`, [], { LOG_LEVEL: 'not-a-level' });
    check(outcome.code === 2 && outcome.stderr.includes('LOG_LEVEL'), `${name}.js does not load as far as its config check`, outcome);
  }),
);

const admin = await run('admin.js', ['--help'], {});
check(admin.code === 0 && admin.stdout.startsWith('Usage:'), 'admin.js --help does not print its usage', admin);

// The worker bundles the workflows from the build's workflows/index.js (process/worker.ts): bundling them proves it
// finds them, and that the bundler's packages are production ones.
const dir = await mkdtemp(join(tmpdir(), 'check-build-'));
try {
  const out = join(dir, 'workflows.js');
  const bundled = await run('bundleWorkflows.js', ['--out', out], {});
  const size = await stat(out).then((s) => s.size, () => 0);
  check(bundled.code === 0 && size > 0, 'the workflows do not bundle from the build', bundled);
} finally {
  await rm(dir, { recursive: true, force: true });
}

// The console's static files are read beside the emitted module and from htmx's package when the api starts.
try {
  assetRoutes({ get: () => undefined } as unknown as ConsoleRouter);
} catch (err) {
  check(false, `the console's assets are missing from the build: ${(err as Error).message}`);
}

if (failures.length > 0) {
  for (const failure of failures) process.stderr.write(`check:build: ${failure}\n`);
  process.exit(1);
}
console.log(`check:build: the build starts on Node ${process.versions.node} (${SERVICES.join(', ')}, admin, the workflow bundle, the console's assets)`);
