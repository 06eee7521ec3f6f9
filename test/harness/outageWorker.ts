import type { WorkflowHandle } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import type { Database } from '../../db/schema.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { createWorker } from '../../process/worker.js';
import { eventually } from './eventually.js';
import { sharedBundle } from './temporal.js';
import { useTimeSkippingTestBed, type TimeSkippingTestBed } from './timeSkippingTestBed.js';
import { startTcpProxy, type TcpProxy } from './tcpProxy.js';

const HOUR_MS = 3_600_000;

export interface OutageTestBed {
  bed: TimeSkippingTestBed;
  /** The production worker's task queue: start the runs under test here. */
  taskQueue: string;
  /**
   * Takes the database away from the worker, starts a run with `start` and waits until an hour of the server's
   * time has passed or the run closed, then gives the database back. Answers the run's result (awaiting it lets
   * the server skip time), whether the run closed meanwhile and how many connections the proxy refused.
   */
  outlastHour(start: () => Promise<WorkflowHandle>): Promise<{ outcome: Promise<unknown>; closed: boolean; refused: number }>;
}

/**
 * A time-skipping bed (its own worker on `${name}-bed`) and the production worker (createWorker, with its activity
 * interceptors) on `${name}-test`, reaching the bed's database through a proxy that can take it away; the
 * time-skipping server fires the backoff timers of an hour's retries at once. Torn down after the file's tests.
 */
export function useOutageTestBed(name: string): OutageTestBed {
  const bed = useTimeSkippingTestBed({ taskQueue: `${name}-bed` });
  const taskQueue = `${name}-test`;
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
    bed,
    taskQueue,
    async outlastHour(start) {
      started().setDown(true);
      const startedAt = await bed.env.currentTimeMs();
      const handle = await start();
      const outcome = handle.result();
      outcome.catch(() => {}); // awaited by the test, after the outage
      const state = await eventually(
        async () => ({ elapsed: (await bed.env.currentTimeMs()) - startedAt, closed: (await handle.describe()).status.name !== 'RUNNING' }),
        (s) => s.closed || s.elapsed > HOUR_MS,
        120_000,
      );
      const refused = started().refused;
      started().setDown(false);
      return { outcome, closed: state.closed, refused };
    },
  };
}

/**
 * Runs `body` while every insert or update on `table` fails with `message`: a failure that no wait cures, unlike an
 * outage. The trigger is dropped afterwards, whatever `body` did.
 */
export async function whileWritesRefused<T>(db: Kysely<Database>, table: string, message: string, body: () => Promise<T>): Promise<T> {
  const refuse = sql.id(`refuse_${table}`);
  await sql`create function ${refuse}() returns trigger language plpgsql as $$ begin raise exception ${sql.lit(message)}; end $$`.execute(db);
  await sql`create trigger ${refuse} before insert or update on ${sql.table(table)} for each row execute function ${refuse}()`.execute(db);
  try {
    return await body();
  } finally {
    await sql`drop trigger ${refuse} on ${sql.table(table)}`.execute(db);
    await sql`drop function ${refuse}()`.execute(db);
  }
}
