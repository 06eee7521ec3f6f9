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
  private dataDir = '';
  private pgPort = 0;
  private env: Record<string, string> = {};
  private expectedEnds = new Set<ServiceProcess>();
  private stopped = false;

  async start(log: (line: string) => void): Promise<void> {
    this.dataDir = await mkdtemp(join(tmpdir(), 'cb-chaos-pg-'));
    this.pgPort = await freePort();
    await this.startPostgres();
    const url = this.postgres!.url;
    this.db = createDatabase(url, 5);
    await migrateToLatest(this.db.db);
    log(`PostgreSQL on 127.0.0.1:${this.pgPort}, migrated`);

    const temporalAddress = await this.startTemporal();
    log(`Temporal dev server on ${temporalAddress} (pid ${this.temporal!.pid})`);

    const [apiPort, apiOpsPort, workerPort] = [await freePort(), await freePort(), await freePort()];
    this.apiOrigin = `http://127.0.0.1:${apiPort}`;
    this.apiOpsOrigin = `http://127.0.0.1:${apiOpsPort}`;
    this.workerOrigin = `http://127.0.0.1:${workerPort}`;
    this.env = {
      NODE_ENV: 'development',
      DATABASE_URL: url,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: 'default',
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      API_OPS_PORT: String(apiOpsPort),
      WORKER_PORT: String(workerPort),
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_INSECURE_LOCAL: 'true',
      // The load goes through a few keys at a rate no customer would: the per-key and per-address limits are not under test.
      RATE_LIMIT_PRO_PER_MINUTE: '1000000',
      AUTH_FAILURE_LIMIT: '1000000',
      WORKER_SHUTDOWN_GRACE_MS: '10000',
    };
    this.api = this.watch('api', startServiceProcess('api', this.env));
    await this.startWorker();
    await untilReady(this.api, `${this.apiOpsOrigin}/readyz`);
    log(`api on ${this.apiOrigin}, worker ready on ${this.workerOrigin}`);
  }

  /** Starts a worker process; `ready` waits for its /readyz (a restart's recovery is measured by the caller instead). */
  async startWorker(ready = true): Promise<void> {
    this.worker = this.watch('worker', startServiceProcess('worker', this.env));
    if (ready) await untilReady(this.worker, `${this.workerOrigin}/readyz`, 180_000);
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
    const args = [
      'server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--http-port', String(httpPort),
      '--metrics-port', String(metricsPort), '--namespace', settings.namespace, '--log-format', 'json', '--log-level', 'error',
      ...Object.entries(settings.searchAttributes).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]),
      ...Object.entries(settings.sqlitePragmas).flatMap(([k, v]) => ['--sqlite-pragma', `${k}=${v}`]),
    ];
    this.temporal = spawn(cliPath, args, { stdio: 'ignore' });
    this.temporal.on('exit', (code, signal) => {
      if (!this.stopped) this.unexpectedExits.push(`Temporal exited by itself (code ${code}, signal ${signal})`);
    });
    const address = `127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while ((await fetch(`http://127.0.0.1:${httpPort}/api/v1/namespaces/${settings.namespace}`).then((r) => r.status, () => 0)) !== 200) {
      if (Date.now() > deadline || this.temporal.exitCode !== null) throw new Error('The Temporal dev server did not start.');
      await sleep(200);
    }
    return address;
  }
}
