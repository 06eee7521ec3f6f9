import { readlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/logger.js';
import { systemClock } from '../src/core/clock.js';
import { createLocalPlatform } from '../src/platform/localPlatform.js';
import { connectWorkerConnection } from '../src/core/temporal/connection.js';
import { bundleWorkflows, createWorker } from '../process/worker.js';
import { buildApiDeps, createTemporalGateway, openDatabase, startApiServer } from '../process/wiring.js';
import { createBareApp } from './bareApp.js';

export interface ServerThreadData {
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
  /** `worker` runs only a Temporal worker: the extra workers of `--workers N`. */
  role: 'api+worker' | 'worker';
  /** Usable keys the api keeps in memory (`--credential-cache`; 0 looks every request's key up). */
  credentialCacheEntries: number;
  /** How the api checks what leaves (`--response-check`). */
  responseCheck: string;
}

// The api (full chain and bare route, one pool) and a worker run in this thread, so the load generator
// in the main thread does not share their event loop.
const data = workerData as ServerThreadData;
const config = loadConfig({
  // Not 'production': the webhook scenarios' loopback receivers need WEBHOOK_ALLOW_INSECURE_LOCAL, which production refuses.
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  PORT: '0',
  API_OPS_PORT: '0',
  SHUTDOWN_PROPAGATION_MS: '0',
  DATABASE_URL: data.databaseUrl,
  TEMPORAL_ADDRESS: data.temporalAddress,
  TEMPORAL_NAMESPACE: data.temporalNamespace,
  TEMPORAL_TASK_QUEUE: data.taskQueue,
  // "A Pro key with a high enough limit": the rate limiter still counts every request.
  RATE_LIMIT_PRO_PER_MINUTE: '100000000',
  // The webhook scenarios deliver to a receiver on loopback.
  WEBHOOK_ALLOW_INSECURE_LOCAL: 'true',
  CREDENTIAL_CACHE_ENTRIES: String(data.credentialCacheEntries),
  RESPONSE_CHECK: data.responseCheck,
});
const logger = createLogger('warn', 'bench');
const database = openDatabase(config, logger, 'api');
const connection = await connectWorkerConnection(config.temporal);
// The api starts its runs eagerly on this thread's worker (one round trip less per run).
const temporal = createTemporalGateway(config, connection);
// A bare worker: the production worker's schedules (rank snapshots every minute) and relay would do
// their background work in the middle of the measurements.
const worker = await createWorker({
  connection,
  namespace: config.temporal.namespace,
  taskQueue: config.temporal.taskQueue,
  bundle: await bundleWorkflows(),
  deps: { db: database.db, platform: createLocalPlatform(database.db), clock: systemClock, logger, temporal, webhooks: config.webhooks },
});
const running = worker.run();
const api = data.role === 'api+worker' ? await startApiServer(buildApiDeps(config, database.db, temporal, logger)) : undefined;
const bare = data.role === 'api+worker' ? createServer({ keepAlive: true }, createBareApp(database.db).callback()) : undefined;
await new Promise<void>((resolve) => (bare ? bare.listen(0, '127.0.0.1', resolve) : resolve()));

// The thread's id in the kernel (/proc/thread-self is `<pid>/task/<tid>`): its CPU time is read from there.
const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
parentPort!.postMessage({ fullPort: api ? Number(new URL(api.url).port) : 0, barePort: bare ? (bare.address() as AddressInfo).port : 0, tid });
parentPort!.on('message', async (message) => {
  if (message !== 'stop') return;
  await api?.close();
  bare?.close();
  worker.shutdown();
  await running;
  process.exit(0);
});
