import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { migrateToLatest } from '../../db/migrate.js';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import { startEmbeddedPostgres, type RunningPostgres } from '../../process/infra/embeddedPostgres.js';
import { freePort } from '../../process/infra/freePort.js';
import { resolveTemporalBinary } from '../../process/infra/temporalBinaries.js';
import { readTemporalDevSettings } from '../../process/infra/temporalDevSettings.js';
import { loadConfig } from '../../src/core/config.js';
import { startServiceProcess, untilReady, type ServiceProcess } from '../harness/serviceProcess.js';
import type { Backend, Balancer } from './balancer.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The production topology on loopback: an embedded PostgreSQL, a Temporal dev server started here (so that its pid
 * can be frozen), and the api and the worker as the separate processes `npm run api` / `npm run worker` start.
 * Every process it starts is watched: one that ends without having been told to is recorded in `unexpectedExits`.
 */
export class ChaosStack {
  readonly unexpectedExits: string[] = [];
  api!: ServiceProcess;
  worker!: ServiceProcess;
  db!: DatabaseHandle;
  apiOrigin = '';
  /** The api's operations port (/readyz). */
  apiOpsOrigin = '';
  workerOrigin = '';
  private postgres?: RunningPostgres;
  private temporal?: ChildProcess;
  /** The dev server's ports and arguments, kept so that a restart comes back on the same port and database file. */
  private temporalArgs: string[] = [];
  private temporalCli = '';
  private temporalHttpPort = 0;
  private temporalNamespace = '';
  private temporalStopping = false;
  private dataDir = '';
  private temporalDir = '';
  private instances = 0;
  private pgPort = 0;
  private env: Record<string, string> = {};
  private expectedEnds = new Set<ServiceProcess>();
  private stopped = false;

  async start(log: (line: string) => void): Promise<void> {
    this.dataDir = await mkdtemp(join(tmpdir(), 'cb-chaos-pg-'));
    this.temporalDir = await mkdtemp(join(tmpdir(), 'cb-chaos-temporal-'));
    this.pgPort = await freePort();
    await this.startPostgres();
    const url = this.postgres!.url;
    this.db = createDatabase(url, 5);
    await migrateToLatest(this.db.db);
    log(`PostgreSQL on 127.0.0.1:${this.pgPort}, migrated`);

    const temporalAddress = await this.startTemporal();
    log(`Temporal dev server on ${temporalAddress} (pid ${this.temporal!.pid})`);

    this.env = {
      NODE_ENV: 'development',
      DATABASE_URL: url,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: 'default',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_INSECURE_LOCAL: 'true',
      // The load goes through a few keys at a rate no customer would: the per-key and per-address limits are not under test.
      RATE_LIMIT_PRO_PER_MINUTE: '1000000',
      AUTH_FAILURE_LIMIT: '1000000',
      WORKER_SHUTDOWN_GRACE_MS: '10000',
    };
    await this.startApi();
    await this.startWorker();
    log(`api on ${this.apiOrigin}, worker ready on ${this.workerOrigin}`);
  }

  /** Starts an api process on ports of its own and waits for its /readyz; it becomes `api`. */
  async startApi(): Promise<Backend> {
    const [port, opsPort] = [await freePort(), await freePort()];
    const name = `api-${++this.instances}`;
    const api = this.watch(name, startServiceProcess('api', { ...this.env, PORT: String(port), API_OPS_PORT: String(opsPort) }));
    await untilReady(api, `http://127.0.0.1:${opsPort}/readyz`);
    [this.api, this.apiOrigin, this.apiOpsOrigin] = [api, `http://127.0.0.1:${port}`, `http://127.0.0.1:${opsPort}`];
    return { name, origin: this.apiOrigin, opsOrigin: this.apiOpsOrigin };
  }

  /** Starts a worker process (it becomes `worker`); `ready` waits for its /readyz (a restart's recovery is measured by the caller instead). */
  async startWorker(ready = true): Promise<void> {
    const port = await freePort();
    this.worker = this.watch(`worker-${++this.instances}`, startServiceProcess('worker', { ...this.env, WORKER_PORT: String(port) }));
    this.workerOrigin = `http://127.0.0.1:${port}`;
    if (ready) await untilReady(this.worker, `${this.workerOrigin}/readyz`, 180_000);
  }

  /**
   * A rolling deploy of both: a new api and a new worker started and ready, the new api in the balancer, then the old
   * ones sent SIGTERM together and waited for (each drains as in production). Answers the old processes' exit codes.
   */
  async roll(balancer: Balancer): Promise<string[]> {
    const [previousApi, previousWorker, previousOrigin] = [this.api, this.worker, this.apiOrigin];
    await balancer.add(await this.startApi());
    await this.startWorker();
    this.expectedEnds.add(previousApi);
    this.expectedEnds.add(previousWorker);
    const ends = await Promise.all([previousApi, previousWorker].map(async (service) => (await Promise.all([service.stop(), service.exited]))[1]));
    balancer.remove(previousOrigin);
    return ends.flatMap(({ code, signal }, i) => (code === 0 ? [] : [`the old ${i === 0 ? 'api' : 'worker'} ended with code ${code} (signal ${signal}) after SIGTERM`]));
  }

  /** kill -9 of the only worker: no drain, no goodbye. */
  async killWorker(): Promise<void> {
    this.expectedEnds.add(this.worker);
    this.worker.child.kill('SIGKILL');
    await this.worker.exited;
  }

  async stopPostgres(): Promise<void> {
    await this.postgres?.stop();
    this.postgres = undefined;
  }

  async startPostgres(): Promise<void> {
    this.postgres = await startEmbeddedPostgres({ dataDir: this.dataDir, port: this.pgPort, persistent: true });
  }

  freezeTemporal(): void {
    this.temporal?.kill('SIGSTOP');
  }

  thawTemporal(): void {
    this.temporal?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.thawTemporal();
    for (const service of [this.api, this.worker]) {
      if (!service) continue;
      this.expectedEnds.add(service);
      await service.stop().catch(() => {});
    }
    await this.db?.close().catch(() => {});
    if (this.temporal && this.temporal.exitCode === null) {
      this.temporal.kill('SIGTERM');
      await Promise.race([once(this.temporal, 'exit'), sleep(10_000)]);
      if (this.temporal.exitCode === null) this.temporal.kill('SIGKILL');
    }
    await this.stopPostgres().catch(() => {});
    if (this.dataDir) await rm(this.dataDir, { recursive: true, force: true });
    if (this.temporalDir) await rm(this.temporalDir, { recursive: true, force: true });
  }

  private watch(name: string, service: ServiceProcess): ServiceProcess {
    void service.exited.then(({ code, signal }) => {
      if (!this.expectedEnds.has(service)) {
        this.unexpectedExits.push(`${name} exited by itself (code ${code}, signal ${signal}): ${service.stderr.slice(-5).join(' | ')}`);
      }
    });
    return service;
  }

  private async startTemporal(): Promise<string> {
    const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
    const cliPath = await resolveTemporalBinary('temporal', config.temporal, () => {});
    if (!cliPath) throw new Error('No Temporal CLI: set TEMPORAL_CLI_PATH (README: Temporal binaries).');
    const settings = await readTemporalDevSettings(join(root, 'temporal-dev.yml'));
    const [port, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
    // A database file (not the default in-memory store), so that a stopped frontend comes back with every run.
    this.temporalArgs = [
      'server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--http-port', String(httpPort),
      '--metrics-port', String(metricsPort), '--namespace', settings.namespace, '--log-format', 'json', '--log-level', 'error',
      '--db-filename', join(this.temporalDir, 'temporal.sqlite'),
      ...Object.entries(settings.searchAttributes).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]),
      ...Object.entries(settings.sqlitePragmas).flatMap(([k, v]) => ['--sqlite-pragma', `${k}=${v}`]),
    ];
    this.temporalCli = cliPath;
    this.temporalHttpPort = httpPort;
    this.temporalNamespace = settings.namespace;
    await this.launchTemporal();
    return `127.0.0.1:${port}`;
  }

  /** Stops the Temporal dev server (SIGTERM, its own shutdown) and waits for its exit. */
  async stopTemporal(): Promise<void> {
    const temporal = this.temporal;
    if (!temporal || temporal.exitCode !== null) return;
    this.temporalStopping = true;
    temporal.kill('SIGTERM');
    await Promise.race([once(temporal, 'exit'), sleep(15_000)]);
    if (temporal.exitCode === null && temporal.signalCode === null) {
      temporal.kill('SIGKILL');
      await once(temporal, 'exit');
    }
  }

  /** Starts the dev server again on the same port and database file, and waits until it serves the namespace. */
  async restartTemporal(): Promise<void> {
    this.temporalStopping = false;
    await this.launchTemporal();
  }

  private async launchTemporal(): Promise<void> {
    const child = spawn(this.temporalCli, this.temporalArgs, { stdio: 'ignore' });
    this.temporal = child;
    child.on('exit', (code, signal) => {
      if (!this.stopped && !this.temporalStopping) this.unexpectedExits.push(`Temporal exited by itself (code ${code}, signal ${signal})`);
    });
    const deadline = Date.now() + 60_000;
    while ((await fetch(`http://127.0.0.1:${this.temporalHttpPort}/api/v1/namespaces/${this.temporalNamespace}`).then((r) => r.status, () => 0)) !== 200) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('The Temporal dev server did not start.');
      await sleep(200);
    }
  }
}
