import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the api and worker processes of `--topology prod` are given (besides their own ports). */
export interface ProdTopologyOptions {
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
  workers: number;
  credentialCacheEntries: number;
  responseCheck: string;
  /** API_EAGER_WORKER of the api process (`--api-eager-worker`). */
  apiEagerWorker: boolean;
}

export interface ProdTopology {
  fullUrl: string;
  /** CPU time (user + system, ms) each process has used so far: `api`, `worker-1`..., and `load` (this process). */
  cpuMs(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 120_000;
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * `--topology prod`: the api and each worker in a process of its own, started by their real entrypoints
 * (process/entrypoints/api.ts, worker.ts) with the environment production gives them and a pool each; this
 * process is the load generator. Ready once each answers its /readyz; stopped by SIGTERM, as an orchestrator does.
 */
export async function startProdTopology(o: ProdTopologyOptions): Promise<ProdTopology> {
  const children: Array<{ name: string; child: ChildProcess }> = [];
  const stop = async () => {
    await Promise.all(children.map(({ child }) => stopChild(child)));
  };
  try {
    const common = {
      // Not 'production': the webhook scenarios' loopback receivers need WEBHOOK_ALLOW_INSECURE_LOCAL.
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SHUTDOWN_PROPAGATION_MS: '0',
      DATABASE_URL: o.databaseUrl,
      TEMPORAL_ADDRESS: o.temporalAddress,
      TEMPORAL_NAMESPACE: o.temporalNamespace,
      TEMPORAL_TASK_QUEUE: o.taskQueue,
      RATE_LIMIT_PRO_PER_MINUTE: '100000000',
      WEBHOOK_ALLOW_INSECURE_LOCAL: 'true',
    };
    const port = await freePort();
    const apiOps = await freePort();
    children.push({
      name: 'api',
      child: start('api', {
        ...common,
        PORT: String(port),
        API_OPS_PORT: String(apiOps),
        CREDENTIAL_CACHE_ENTRIES: String(o.credentialCacheEntries),
        RESPONSE_CHECK: o.responseCheck,
        API_EAGER_WORKER: String(o.apiEagerWorker),
      }),
    });
    const probes = [`http://127.0.0.1:${apiOps}/readyz`];
    for (let i = 1; i <= o.workers; i++) {
      const workerPort = await freePort();
      children.push({ name: `worker-${i}`, child: start('worker', { ...common, WORKER_PORT: String(workerPort) }) });
      probes.push(`http://127.0.0.1:${workerPort}/readyz`);
    }
    await Promise.all(probes.map((url, i) => untilReady(url, children[i]!.child)));
    return {
      fullUrl: `http://127.0.0.1:${port}`,
      async cpuMs() {
        const entries = await Promise.all(children.map(async ({ name, child }) => [name, await processCpuMs(child.pid!)] as const));
        const own = process.cpuUsage();
        return { ...Object.fromEntries(entries), load: (own.user + own.system) / 1000 };
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

function start(entrypoint: 'api' | 'worker', env: Record<string, string>): ChildProcess {
  // The bench runs under tsx: fork keeps its loader (execArgv), as for giveaways-end's worker.
  return fork(new URL(`../process/entrypoints/${entrypoint}.ts`, import.meta.url), [], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

async function untilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode} before it was ready`);
    const ready = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return;
    // A readiness probe is polled, as an orchestrator polls it.
    await sleep(200);
  }
  throw new Error(`${url}: not ready after ${READY_TIMEOUT_MS / 1000} s`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15), in ms. */
async function processCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
