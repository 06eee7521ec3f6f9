import { expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { createWorker } from '../../process/worker.js';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { eventually } from '../harness/eventually.js';
import { sharedBundle } from '../harness/temporal.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';
import { attemptsOf, claimedBatch } from '../webhooks/batchFixture.js';
import { startEventReceiver } from '../webhooks/eventReceiver.js';

const bed = useTimeSkippingTestBed({ taskQueue: 'worker-grace-test' });
const { database, taskQueue } = bed;

it('a stopping worker lets the activities in flight finish within its grace time (a deploy interrupts no delivery)', async () => {
  // The worker's settings as a production process reads them (defaults: grace 10 s, force 13 s).
  const { ops } = loadConfig({ NODE_ENV: 'test' });
  const receiver = await startEventReceiver(() => 'hold');
  const queue = `${taskQueue}-grace`;
  const worker = await createWorker({
    connection: bed.env.nativeConnection,
    namespace: 'default',
    taskQueue: queue,
    bundle: await sharedBundle(),
    maxCachedWorkflows: 0,
    deps: {
      db: database.db,
      platform: createLocalPlatform(database.db),
      clock: systemClock,
      logger: createLogger('silent', queue),
      temporal: { client: bed.client, taskQueue: queue },
      webhooks: { allowInsecureLocal: true },
    },
    shutdownGraceMs: ops.workerShutdownGraceMs,
    shutdownForceMs: ops.workerShutdownForceMs,
  });
  const running = worker.run();
  try {
    const { guildId, endpointId, eventIds, batchId } = await claimedBatch(database.db, 2, receiver.url);
    await bed.client.workflow.start('webhookBatch', { workflowId: webhookBatchWorkflowId(guildId, batchId), taskQueue: queue, args: [{ batchId, guildId }] });
    expect(await eventually(async () => receiver.held.length, (n) => n === 2)).toBe(2);

    worker.shutdown();
    await eventually(async () => worker.getState(), (state) => state !== 'RUNNING');
    // The receiver answers only now, after the stop began: with the SDK's default grace of 0 the attempts
    // would have been cancelled and logged as interrupted.
    for (const res of receiver.held.splice(0)) res.writeHead(204).end();
    await running;
    for (const eventId of eventIds) {
      expect((await attemptsOf(database.db, endpointId, eventId)).map((a) => [a.attempt, a.status_code, a.error])).toEqual([[1, 204, null]]);
    }
  } finally {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running.catch(() => {});
    await receiver.close();
  }
});
