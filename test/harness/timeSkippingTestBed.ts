import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Database } from '../../db/schema.js';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { AREAS } from '../../process/areas.js';
import { collectActivities } from '../../process/registry.js';
import { useTestDatabase, type TestDatabase } from './database.js';
import { sharedBundle, testGateway } from './temporal.js';

export interface TimeSkippingTestBedOptions {
  /** The worker's task queue on the time-skipping server (one name per file). */
  taskQueue: string;
  /**
   * The gateway the activities start workflows with: the time-skipping environment's client on `taskQueue`
   * (default), or a client on the run's Temporal dev server (`'dev-server'`).
   */
  temporal?: 'time-skipping' | 'dev-server';
  /** The activities' clock (default the system's): a test that moves Temporal's time moves this one with it. */
  clock?: Clock;
}

export interface TimeSkippingTestBed {
  database: TestDatabase;
  db: () => Kysely<Database>;
  taskQueue: string;
  /** Set before the file's tests run. */
  readonly env: TestWorkflowEnvironment;
  /** The time-skipping environment's client (`env.client`). */
  readonly client: TestWorkflowEnvironment['client'];
}

/**
 * The test bed of a workflow test whose timers must fire at once: a database of its own, the time-skipping
 * test server, and a worker on `taskQueue` with the shared bundle and every area's activities on that database;
 * all torn down after the file's tests.
 */
export function useTimeSkippingTestBed(options: TimeSkippingTestBedOptions): TimeSkippingTestBed {
  const database = useTestDatabase();
  const db = () => database.db;
  const { taskQueue } = options;
  let env: TestWorkflowEnvironment | undefined;
  let gateway: TemporalGateway | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: inject('testServerPath') } } });
    // The custom search attributes, as temporal-dev.yml registers them on the dev server and operators on a cluster.
    const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
    await env.connection.operatorService.addSearchAttributes({ namespace: env.namespace ?? 'default', searchAttributes: { GuildId: keyword, Operation: keyword } });
    gateway = options.temporal === 'dev-server' ? testGateway() : { client: env.client, taskQueue };
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await sharedBundle(),
      activities: collectActivities(AREAS, {
        db: db(),
        platform: createLocalPlatform(db()),
        clock: options.clock ?? systemClock,
        logger: createLogger('silent', taskQueue),
        temporal: gateway,
        webhooks: { allowInsecureLocal: true },
      }),
    });
    running = worker.run();
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    if (options.temporal === 'dev-server') await gateway?.client.connection.close();
    await env?.teardown();
  });
  function started() {
    if (!env) throw new Error('The time-skipping environment starts in beforeAll.');
    return env;
  }
  return { database, db, taskQueue, get env() { return started(); }, get client() { return started().client; } };
}
