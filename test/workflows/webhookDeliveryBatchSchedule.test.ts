import { describe, expect, it } from 'vitest';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { webhookDeliveryWorkflowId } from '../../src/webhooks/ids.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';
import { attemptsOf, claimedBatch, secondsBetween } from '../webhooks/batchFixture.js';
import { startEventReceiver } from '../webhooks/eventReceiver.js';

// The time-skipping server fires the retry run's timers, a day and a half of them, without waiting for them
// (a server of its own: see webhookDeliveryBatch.test.ts).
const bed = useTimeSkippingTestBed({ taskQueue: 'webhook-batch-schedule-test', temporal: 'dev-server' });
const { database, taskQueue } = bed;

describe('retries after a failed batch attempt', () => {
  it('go on from attempt 2 to attempt 7 on the full schedule, then the delivery fails', async () => {
    const receiver = await startEventReceiver(() => 503);
    try {
      const { guildId, endpointId, eventIds, batchId } = await claimedBatch(database.db, 1, receiver.url);
      await bed.client.workflow.execute('webhookBatch', { workflowId: webhookBatchWorkflowId(guildId, batchId), taskQueue, args: [{ batchId, guildId }] });
      const retries = bed.client.workflow.getHandle(webhookDeliveryWorkflowId(endpointId, eventIds[0]!));
      expect(await retries.result()).toBe('failed');
      const attempts = await attemptsOf(database.db, endpointId, eventIds[0]!);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(attempts.slice(1).map((a, i) => secondsBetween(attempts[i]!.attempted_at, a.attempted_at))).toEqual([60, 300, 1800, 7200, 21600, 86400]);
      expect(attempts.at(-1)!.status).toBe('failed');
      expect(receiver.total()).toBe(7);
      const endpoint = await database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirstOrThrow();
      expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    } finally {
      await receiver.close();
    }
  });
});
