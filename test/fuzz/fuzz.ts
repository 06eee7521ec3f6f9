import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

// `npm run fuzz`: schemathesis against the stack a new user gets from `npm run dev`, on loopback only.
// It fails on a 5xx, a response outside its schema, an undocumented status or content type, and a
// schema-valid request answered 400. CI runs it after the tests (.ci/run).

const root = fileURLToPath(new URL('../..', import.meta.url));
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const MAX_SECONDS = Number(process.env.FUZZ_MAX_SECONDS ?? 150);
/** A demo member (process/demo/demoGuild.ts), so member paths reach their handlers. */
const DEMO_MEMBER_ID = '1100000000000001000';
/**
 * What a schema-valid request may still be answered: the member or record may not exist (404), the state
 * may refuse it (409: insufficient funds, an appeal already decided), a bot target (422), and moderation's
 * own limit of 10 actions per minute per key (429). 400 stays out: a valid request must never get it.
 */
const ACCEPTED_FOR_VALID_DATA = ['2xx', 404, 409, 422, 429];

interface Credentials {
  baseUrl: string;
  guildId: string;
  apiKey: string;
}

async function main(): Promise<number> {
  const st = schemathesisBinary();
  const started = Date.now();
  const dev = spawn('npm', ['run', 'dev'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
    // The fuzzer sends thousands of requests a minute through one key: the per-key and failed-auth limits
    // would answer most of them 429 before any handler ran.
    env: { ...process.env, RATE_LIMIT_PRO_PER_MINUTE: '1000000', AUTH_FAILURE_LIMIT: '1000000', LOG_LEVEL: 'warn' },
  });
  try {
    const credentials = await waitForStack(join(root, '.dev', 'credentials.json'), started, dev);
    return await runSchemathesis(st, credentials);
  } finally {
    await stop(dev);
  }
}

function schemathesisBinary(): string {
  if (process.env.SCHEMATHESIS_PATH) return process.env.SCHEMATHESIS_PATH;
  const scripts = spawnSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_path("scripts"))'], { encoding: 'utf8' });
  return scripts.status === 0 ? join(scripts.stdout.trim(), 'st') : 'st';
}

/** The dev stack is up when it rewrote its credentials and serves the OpenAPI document. */
async function waitForStack(file: string, since: number, dev: ChildProcess): Promise<Credentials> {
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (dev.exitCode !== null) throw new Error(`npm run dev exited with ${dev.exitCode} before it was ready`);
    const written = await stat(file).then((s) => s.mtimeMs, () => 0);
    if (written >= since) {
      const credentials = JSON.parse(await readFile(file, 'utf8')) as Credentials;
      const ok = await fetch(`${credentials.baseUrl}/openapi.json`).then((r) => r.ok, () => false);
      if (ok) return credentials;
    }
    await sleep(500);
  }
  throw new Error('npm run dev was not ready within 240 s');
}

async function runSchemathesis(st: string, c: Credentials): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'fuzz-'));
  try {
    const config = join(dir, 'schemathesis.toml');
    await writeFile(
      config,
      [
        `headers = { Authorization = "Bearer ${c.apiKey}" }`,
        // The body strings' pattern (no U+0000, no lone surrogates) is one schemathesis cannot compile, so
        // it drops it; this tells its generator the same rule (it never makes lone surrogates).
        '[generation]',
        'allow-x00 = false',
        '[parameters]',
        `guildId = "${c.guildId}"`,
        `userId = "${DEMO_MEMBER_ID}"`,
        '[checks.positive_data_acceptance]',
        `expected-statuses = ${JSON.stringify(ACCEPTED_FOR_VALID_DATA)}`,
        '',
      ].join('\n'),
    );
    const run = spawnSync(
      st,
      [
        '--config-file', config, 'run', `${c.baseUrl}/openapi.json`,
        '--url', c.baseUrl,
        '--seed', String(SEED),
        '--max-time', String(MAX_SECONDS),
        // One worker: with two, Hypothesis' lambda-source cache raised internal errors under threads.
        '--workers', '1',
        // No stateful phase: its inferred links feed one resource's ids into another's path parameter
        // whatever that parameter's pattern (a case number as a moderation action id), and count the
        // 400 as a valid request refused.
        '--phases', 'examples,coverage,fuzzing',
        '--checks', 'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,positive_data_acceptance',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (run.error) throw run.error;
    process.stdout.write(withoutRunnerBanners(run.stdout));
    const cases = /(\d+) generated/.exec(run.stdout)?.[1] ?? 'an unknown number of';
    console.log(`[fuzz] schemathesis exited with ${run.status} after ${cases} test cases (requests), seed ${SEED}`);
    return run.status ?? 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Schemathesis closes its report with a pytest-shaped banner ("=== 3 warnings in 150.02s ==="). CI reads
 * such a line as pytest's verdict on a run that executed no test, so the banners are printed as plain
 * headings; the test command's own closing line is the one that counts.
 */
function withoutRunnerBanners(report: string): string {
  return report.replace(/^=+ (.+?) =+$/gm, '--- $1 ---');
}

/** Stops the dev stack as a terminal would: SIGINT to its whole process group. */
async function stop(dev: ChildProcess): Promise<void> {
  if (dev.exitCode !== null || dev.pid === undefined) return;
  const exited = new Promise((resolve) => dev.once('exit', resolve));
  signalGroup(dev.pid, 'SIGINT');
  await Promise.race([exited, sleep(30_000)]);
  if (dev.exitCode === null) signalGroup(dev.pid, 'SIGKILL');
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    // The group may be gone already: npm exits when its child does.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

process.exitCode = await main();
