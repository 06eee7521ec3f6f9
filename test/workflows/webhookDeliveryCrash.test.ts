import { NativeConnection, Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { AREAS } from '../../process/areas.js';
import { collectActivities } from '../../process/registry.js';
import { INTERRUPTED_ATTEMPT } from '../../db/webhooks/batches.js';
import { FIRST_ATTEMPTS_PER_ENDPOINT } from '../../src/webhooks/firstAttempts.js';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { webhookDeliveryWorkflowId } from '../../src/webhooks/ids.js';
import { sharedBundle } from '../harness/temporal.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';
import { attemptsOf, claimedBatch } from '../webhooks/batchFixture.js';
import { startEventReceiver } from '../webhooks/eventReceiver.js';

// Its own time-skipping server: the retry runs' 1-minute timers fire without waiting for them.
const bed = useTimeSkippingTestBed({ taskQueue: 'webhook-crash-test' });
const { database, taskQueue } = bed;

describe('a worker that dies in the middle of a batch', () => {
  it('leaves the batch to the next worker, which attempts each delivery exactly once more and skips none', async () => {
    let dying = true;
    const receiver = await startEventReceiver(() => (dying ? 'hold' : 204));
    const queue = `${taskQueue}-crash`;
    const startWorker = async (maxCachedWorkflows?: number) => {
      const worker = await Worker.create({
        connection: bed.env.nativeConnection as NativeConnection,
        taskQueue: queue,
        workflowBundle: await sharedBundle(),
        maxCachedWorkflows,
        activities: collectActivities(AREAS, {
          db: database.db,
          platform: createLocalPlatform(database.db),
          clock: systemClock,
          logger: createLogger('silent', queue),
          temporal: { client: bed.client, taskQueue: queue },
          webhooks: { allowInsecureLocal: true },
        }),
      });
      return { worker, running: worker.run() };
    };
    try {
      // More deliveries than one endpoint's attempts in flight: some are dialled when the worker dies, some not yet.
      const { guildId, endpointId, eventIds, batchId } = await claimedBatch(database.db, FIRST_ATTEMPTS_PER_ENDPOINT + 4, receiver.url);
      // No sticky queue for the worker that dies: the time-skipping server would time the batch out on it
      // instead of handing its next task to the second worker, as a real server does after 5 s.
      const first = await startWorker(0);
      const handle = await bed.client.workflow.start('webhookBatch', { workflowId: webhookBatchWorkflowId(guildId, batchId), taskQueue: queue, args: [{ batchId, guildId }] });
      for (let i = 0; i < 400 && receiver.held.length < FIRST_ATTEMPTS_PER_ENDPOINT; i++) await new Promise((r) => setTimeout(r, 25));
      expect(receiver.held).toHaveLength(FIRST_ATTEMPTS_PER_ENDPOINT);
      first.worker.shutdown();
      await first.running;
      dying = false;

      const second = await startWorker();
      try {
        expect(await handle.result()).toEqual({ succeeded: 4, retrying: FIRST_ATTEMPTS_PER_ENDPOINT, cancelled: 0 });
        for (const eventId of eventIds) {
          const attempts = await attemptsOf(database.db, endpointId, eventId);
          if (attempts[0]!.error === INTERRUPTED_ATTEMPT) {
            await bed.client.workflow.getHandle(webhookDeliveryWorkflowId(endpointId, eventId)).result();
            const all = await attemptsOf(database.db, endpointId, eventId);
            expect(all.map((a) => [a.attempt, a.status_code, a.status])).toEqual([
              [1, null, 'succeeded'],
              [2, 204, 'succeeded'],
            ]);
            expect(receiver.received.get(eventId)).toBe(2);
          } else {
            expect(attempts.map((a) => [a.attempt, a.status_code, a.status])).toEqual([[1, 204, 'succeeded']]);
            expect(receiver.received.get(eventId)).toBe(1);
          }
        }
        const interrupted = await database.db
          .selectFrom('webhook_attempts as a')
          .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('d.endpoint_id', '=', endpointId)
          .where('a.error', '=', INTERRUPTED_ATTEMPT)
          .executeTakeFirstOrThrow();
        expect(Number(interrupted.n)).toBe(FIRST_ATTEMPTS_PER_ENDPOINT);
        expect(receiver.total()).toBe(2 * FIRST_ATTEMPTS_PER_ENDPOINT + 4);
      } finally {
        second.worker.shutdown();
        await second.running;
      }
    } finally {
      await receiver.close();
    }
  });
});
