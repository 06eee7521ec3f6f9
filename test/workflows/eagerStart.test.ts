import { randomUUID } from 'node:crypto';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { xpChangeWorkflow } from '../../src/levels/ids.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { startApiWorker } from '../../process/apiWorker.js';
import { createWorker } from '../../process/worker.js';
import { createTemporalGateway } from '../../process/wiring.js';
import { useTestDatabase } from '../harness/database.js';
import { sharedBundle } from '../harness/temporal.js';

const database = useTestDatabase();
const config = loadConfig({
  NODE_ENV: 'test',
  TEMPORAL_ADDRESS: inject('temporalAddress'),
  TEMPORAL_NAMESPACE: inject('temporalNamespace'),
  TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
});

// A worker and an api sharing one thread, as in the bench's server thread.
let connection: NativeConnection;
let worker: Worker;
let running: Promise<void>;
let local: TemporalGateway;
beforeAll(async () => {
  connection = await NativeConnection.connect({ address: config.temporal.address });
  local = createTemporalGateway(config, connection);
  const { db } = database;
  worker = await createWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    bundle: await sharedBundle(),
    deps: { db, platform: createLocalPlatform(db), clock: systemClock, logger: createLogger('silent', 'eager-test'), temporal: local, webhooks: { allowInsecureLocal: true } },
  });
  running = worker.run();
});
afterAll(async () => {
  worker.shutdown();
  await running;
  await connection.close();
});

// A change that does not exist: its run ends `failed` in its first workflow task, without any other fixture. The id
// policies are startOnce's (the api's starts), which the server must accept with an eager start.
const startMissingChange = (gateway: TemporalGateway) =>
  gateway.client.workflow.start(xpChangeWorkflow.name, {
    workflowId: `eager-${randomUUID()}`,
    taskQueue: gateway.taskQueue,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    args: [{ changeId: `xpc_${randomUUID()}`, guildId: '1', userId: '2' }],
  });

describe('the Temporal gateway', () => {
  it("on a worker's connection starts runs eagerly on that worker", async () => {
    const handle = await startMissingChange(local);
    expect(handle.eagerlyStarted).toBe(true);
    expect(await handle.result()).toEqual({ status: 'failed', error: 'XP_CHANGE_NOT_FOUND' });
  });

  it('of its own starts them through the task queue', async () => {
    const own = createTemporalGateway(config);
    try {
      const handle = await startMissingChange(own);
      expect(handle.eagerlyStarted).toBe(false);
      expect(await handle.result()).toEqual({ status: 'failed', error: 'XP_CHANGE_NOT_FOUND' });
    } finally {
      await own.client.connection.close();
    }
  });
});

describe('API_EAGER_WORKER', () => {
  it('is off by default; on, the api process runs a worker whose client starts an XP change eagerly', async () => {
    expect(config.temporal.apiEagerWorker).toBe(false);
    const apiConfig = loadConfig({
      NODE_ENV: 'test',
      API_EAGER_WORKER: 'true',
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: inject('temporalNamespace'),
      TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    });
    expect(apiConfig.temporal.apiEagerWorker).toBe(true);
    const apiWorker = await startApiWorker(apiConfig, database.db, createLogger('silent', 'eager-api-test'));
    try {
      const handle = await startMissingChange(apiWorker.temporal);
      expect(handle.eagerlyStarted).toBe(true);
      expect(await handle.result()).toEqual({ status: 'failed', error: 'XP_CHANGE_NOT_FOUND' });
    } finally {
      await apiWorker.stop();
    }
  });

  it('refuses a value other than true, false, 1 or 0 with one line naming it', () => {
    expect(() => loadConfig({ API_EAGER_WORKER: 'yes' })).toThrow(/^Invalid configuration:\n {2}API_EAGER_WORKER: [^\n]+$/);
  });
});
