import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { createWorker } from '../../process/worker.js';
import { sharedBundle } from './temporal.js';
import type { TimeSkippingTestBed } from './timeSkippingTestBed.js';
import { startTcpProxy, type TcpProxy } from './tcpProxy.js';

export interface OutageWorker {
  /** Set before the file's tests run: `setDown(true)` takes the database away from the worker. */
  readonly proxy: TcpProxy;
}

/**
 * The production worker (createWorker, with its activity interceptors) on `taskQueue` of a time-skipping bed,
 * reaching the bed's database through a proxy that can take it away; torn down after the file's tests.
 */
export function useOutageWorker(bed: TimeSkippingTestBed, taskQueue: string): OutageWorker {
  let proxy: TcpProxy | undefined;
  let workerDatabase: DatabaseHandle | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  beforeAll(async () => {
    proxy = await startTcpProxy(bed.database.url);
    workerDatabase = createDatabase(proxy.url, 5);
    const db = workerDatabase.db;
    worker = await createWorker({
      connection: bed.env.nativeConnection,
      namespace: 'default',
      taskQueue,
      bundle: await sharedBundle(),
      deps: {
        db,
        platform: createLocalPlatform(db),
        clock: systemClock,
        logger: createLogger('silent', taskQueue),
        temporal: { client: bed.client, taskQueue },
        webhooks: { allowInsecureLocal: true },
      },
    });
    running = worker.run();
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await workerDatabase?.close();
    await proxy?.close();
  });
  return {
    get proxy() {
      if (!proxy) throw new Error('The outage worker starts in beforeAll.');
      return proxy;
    },
  };
}
