import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker, type WorkflowBundle } from '@temporalio/worker';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, inject } from 'vitest';
import type { ActivityDeps } from '../../activities/deps.js';
import type { Database } from '../../db/schema.js';
import type { Platform } from '../../src/core/platform.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { resolveTemporalBinary } from '../../process/infra/temporalBinaries.js';
import { startTemporalDevServer, type RunningTemporal } from '../../process/infra/temporalDevServer.js';
import { readTemporalDevSettings } from '../../process/infra/temporalDevSettings.js';
import { bundleWorkflows, createWorker } from '../../process/worker.js';

let bundle: Promise<WorkflowBundle> | undefined;
/** One bundle per test file process: bundling takes seconds. */
export const sharedBundle = () => (bundle ??= bundleWorkflows());

/** A client on the run's Temporal server with a task queue of its own (no cross-file interference). */
export function testGateway(): TemporalGateway {
  const connection = Connection.lazy({ address: inject('temporalAddress') });
  return { client: new Client({ connection, namespace: inject('temporalNamespace') }), taskQueue: `test-${randomUUID()}` };
}

/**
 * The Temporal server's own time, which workflows read as Date.now(): not the host's clock when they differ (the
 * server is a Go binary, which libfaketime does not move). Read from the start time the server stamps on a workflow
 * started on a task queue nobody polls, then terminated.
 */
export async function temporalServerNow(gateway: TemporalGateway): Promise<Date> {
  const handle = await gateway.client.workflow.start('serverTime', { taskQueue: `server-time-${randomUUID()}`, workflowId: `server-time-${randomUUID()}` });
  try {
    return (await handle.describe()).startTime;
  } finally {
    await handle.terminate('read the server time only');
  }
}

export interface TestWorker {
  gateway: TemporalGateway;
  worker: Worker;
}

/**
 * A real worker for the calling test file, polling the gateway's task queue with real activities on the
 * file's database; `overrides` replaces dependencies outside the product (the platform).
 */
export function useTestWorker(getDb: () => Kysely<Database>, gateway: TemporalGateway, overrides: Partial<ActivityDeps> = {}): TestWorker {
  const state = { gateway } as TestWorker;
  let running: Promise<void> | undefined;
  let connection: NativeConnection | undefined;
  beforeAll(async () => {
    const db = getDb();
    connection = await NativeConnection.connect({ address: inject('temporalAddress') });
    state.worker = await createWorker({
      connection,
      namespace: inject('temporalNamespace'),
      taskQueue: gateway.taskQueue,
      bundle: await sharedBundle(),
      deps: {
        db,
        platform: createLocalPlatform(db),
        clock: systemClock,
        logger: createLogger('silent', 'worker-test'),
        temporal: gateway,
        webhooks: { allowInsecureLocal: true },
        ...overrides,
      },
    });
    running = state.worker.run();
  });
  afterAll(async () => {
    if (state.worker && state.worker.getState() === 'RUNNING') state.worker.shutdown();
    await running;
    await connection?.close();
    await gateway.client.connection.close();
  });
  return state;
}

/**
 * A real worker on the gateway's task queue that the test starts and stops itself (to kill one mid-operation and let
 * the next finish): `stop()` shuts it down and closes its connection.
 */
export async function startStoppableWorker(db: Kysely<Database>, gateway: TemporalGateway, platform: Platform): Promise<{ stop(): Promise<void> }> {
  const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  const worker = await createWorker({
    connection,
    namespace: inject('temporalNamespace'),
    taskQueue: gateway.taskQueue,
    bundle: await sharedBundle(),
    deps: { db, platform, clock: systemClock, logger: createLogger('silent', 'stoppable-worker'), temporal: gateway, webhooks: { allowInsecureLocal: true } },
  });
  const running = worker.run();
  return {
    stop: async () => {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/**
 * A Temporal dev server of the calling test file's own, for a test that starts a worker the way the worker process
 * does: that worker creates the maintenance schedules, whose ids are global on a server, so on the run's shared
 * server they would point another file's schedule test at this file's task queue.
 */
export function useOwnTemporalServer(): { address: string; namespace: string } {
  const server = { address: '', namespace: '' };
  let running: RunningTemporal | undefined;
  beforeAll(async () => {
    const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
    const cliPath = await resolveTemporalBinary('temporal', config.temporal, () => {});
    const settings = await readTemporalDevSettings(fileURLToPath(new URL('../../temporal-dev.yml', import.meta.url)));
    running = await startTemporalDevServer(settings, { cliPath, mode: 'test' });
    Object.assign(server, { address: running.address, namespace: running.namespace });
  });
  afterAll(() => running?.stop());
  return server;
}
