import type { WorkflowHandle } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { createWorker } from '../../process/worker.js';
import { eventually } from './eventually.js';
import { sharedBundle } from './temporal.js';
import type { TimeSkippingTestBed } from './timeSkippingTestBed.js';
import { startTcpProxy, type TcpProxy } from './tcpProxy.js';

export interface OutageWorker {
  /** Set before the file's tests run: `setDown(true)` takes the database away from the worker. */
  readonly proxy: TcpProxy;
  /**
   * Polls until `ms` of the server's time have passed since `startedAt` or `handle`'s run closed; a result awaited
   * meanwhile lets the server skip time. Answers whether it closed and how many connections the proxy refused.
   */
  hold(handle: WorkflowHandle, startedAt: number, ms: number): Promise<{ refused: number; closed: boolean }>;
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
  const started = () => {
    if (!proxy) throw new Error('The outage worker starts in beforeAll.');
    return proxy;
  };
  return {
    get proxy() {
      return started();
    },
    async hold(handle, startedAt, ms) {
      const closed = async () => (await handle.describe()).status.name !== 'RUNNING';
      const state = await eventually(
        async () => ({ refused: started().refused, elapsed: (await bed.env.currentTimeMs()) - startedAt, closed: await closed() }),
        (s) => s.closed || s.elapsed > ms,
        120_000,
      );
      return { refused: state.refused, closed: state.closed };
    },
  };
}
