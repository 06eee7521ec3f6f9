import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { createApp } from '../api/app.js';
import { createDatabase } from '../db/pool.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createLocalPlatform } from '../src/platform/localPlatform.js';
import { createMemberCache } from '../src/platform/memberCache.js';
import { bundleWorkflows, createWorker } from '../src/temporal/worker.js';
import { createBareApp } from './bareApp.js';

export interface ServerThreadData {
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
}

// The api (full chain and bare route, one pool) and a Temporal worker run in this thread, so the load
// generator in the main thread does not share their event loop.
const data = workerData as ServerThreadData;
const config = loadConfig({
  NODE_ENV: 'production',
  DATABASE_URL: data.databaseUrl,
  TEMPORAL_ADDRESS: data.temporalAddress,
  TEMPORAL_NAMESPACE: data.temporalNamespace,
  TEMPORAL_TASK_QUEUE: data.taskQueue,
  // "A Pro key with a high enough limit": the rate limiter still counts every request.
  RATE_LIMIT_PRO_PER_MINUTE: '100000000',
  // The webhook scenarios deliver to a receiver on loopback.
  WEBHOOK_ALLOW_INSECURE_LOCAL: 'true',
});
const { db } = createDatabase(data.databaseUrl, config.database.poolMax);
const platform = createLocalPlatform(db);
const logger = createLogger('warn', 'bench-api');
const client = new Client({ connection: Connection.lazy({ address: data.temporalAddress }), namespace: data.temporalNamespace });
const temporal = { client, taskQueue: data.taskQueue };
const app = createApp({
  config,
  db,
  platform,
  memberCache: createMemberCache(platform, systemClock, config.limits.memberCacheSeconds),
  clock: systemClock,
  logger,
  temporal,
});

const listen = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer({ keepAlive: true }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

const worker = await createWorker({
  connection: await NativeConnection.connect({ address: data.temporalAddress }),
  namespace: data.temporalNamespace,
  taskQueue: data.taskQueue,
  bundle: await bundleWorkflows(),
  deps: { db, platform, clock: systemClock, logger, temporal, webhooks: config.webhooks },
});
const running = worker.run();

parentPort!.postMessage({ fullPort: await listen(app.callback()), barePort: await listen(createBareApp(db).callback()) });
parentPort!.on('message', async (message) => {
  if (message !== 'stop') return;
  worker.shutdown();
  await running;
  process.exit(0);
});
