import { expect, it } from 'vitest';
import { registry } from '../../src/core/metrics.js';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { webhookDeliveryWorkflowId } from '../../src/webhooks/ids.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';
import { claimedBatch } from '../webhooks/batchFixture.js';
import { startEventReceiver } from '../webhooks/eventReceiver.js';

const bed = useTimeSkippingTestBed({ taskQueue: 'webhook-latency-metric-test' });

/** Count and sum of the commit-to-delivery histogram in this process (the bed's worker runs here). */
async function latency() {
  const { values } = await registry.getSingleMetric('webhook_delivery_latency_seconds')!.get();
  const of = (name: string) => values.find((v) => (v as { metricName?: string }).metricName === name)?.value ?? 0;
  return { count: of('webhook_delivery_latency_seconds_count'), sum: of('webhook_delivery_latency_seconds_sum') };
}

it('observes the commit-to-delivery latency of each delivered event, first attempts and retries alike', async () => {
  // The first attempt of the second event fails; its retry run delivers it a minute later (skipped time).
  let second = '';
  const receiver = await startEventReceiver((eventId, nth) => (eventId === second && nth === 1 ? 500 : 204));
  try {
    const { guildId, endpointId, eventIds, batchId } = await claimedBatch(bed.db(), 2, receiver.url);
    second = eventIds[1]!;
    const before = await latency();
    const outcome = await bed.client.workflow.execute('webhookBatch', {
      workflowId: webhookBatchWorkflowId(guildId, batchId),
      taskQueue: bed.taskQueue,
      args: [{ batchId, guildId }],
    });
    expect(outcome).toEqual({ succeeded: 1, retrying: 1, cancelled: 0 });
    const afterFirst = await latency();
    expect(afterFirst.count - before.count).toBe(1);
    expect(afterFirst.sum - before.sum).toBeLessThan(60);

    await bed.client.workflow.getHandle(webhookDeliveryWorkflowId(endpointId, second)).result();
    const afterRetry = await latency();
    expect(afterRetry.count - before.count).toBe(2);
    // The retry waited its minute on the workflow's clock (the time-skipping server's).
    expect(afterRetry.sum - afterFirst.sum).toBeGreaterThanOrEqual(60);
  } finally {
    await receiver.close();
  }
});
