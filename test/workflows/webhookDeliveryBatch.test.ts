import { defaultPayloadConverter } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { FIRST_RETRY_DELAY_MS, webhookDeliveryWorkflowId, type WebhookDeliveryInput } from '../../src/webhooks/ids.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';
import { attemptsOf, claimedBatch, secondsBetween } from '../webhooks/batchFixture.js';
import { startEventReceiver } from '../webhooks/eventReceiver.js';

// The time-skipping server fires the retry runs' timers without waiting for them. One scenario per file
// (webhookDeliveryBatchSchedule.test.ts has the other): once a batch closed with retry runs still open, the
// next test's waits were seen not to skip time on the same server.
/** A retry run's failed-attempt time (its input) and when its first wait ends: the task's time plus the timer set. */
async function firstWaitOf(run: WorkflowHandle): Promise<{ failedAt: number; waitEndsAt: number }> {
  const events = (await run.fetchHistory()).events ?? [];
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
  const input = defaultPayloadConverter.fromPayload<WebhookDeliveryInput>(events[0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!);
  const timerAt = events.findIndex((e) => e.timerStartedEventAttributes);
  // Workflow time (Date.now() in the run) is the time its workflow task started.
  const taskStarted = events.slice(0, timerAt).reverse().find((e) => e.workflowTaskStartedEventAttributes)!;
  return { failedAt: input.firstAttemptFailedAt!, waitEndsAt: ms(taskStarted.eventTime) + ms(events[timerAt]!.timerStartedEventAttributes!.startToFireTimeout) };
}

const bed = useTimeSkippingTestBed({ taskQueue: 'webhook-batch-test', temporal: 'dev-server' });
const { database, taskQueue } = bed;

describe('batched first attempts', () => {
  it('retries the half whose first attempt failed in runs of their own, a minute after each failed attempt', async () => {
    const failFirst = new Set<string>();
    const receiver = await startEventReceiver((id, nth) => (failFirst.has(id) && nth === 1 ? 500 : 204));
    try {
      const { guildId, endpointId, eventIds, batchId } = await claimedBatch(database.db, 10, receiver.url);
      eventIds.filter((_, i) => i % 2 === 1).forEach((id) => failFirst.add(id));
      const result = await bed.client.workflow.execute('webhookBatch', { workflowId: webhookBatchWorkflowId(guildId, batchId), taskQueue, args: [{ batchId, guildId }] });
      expect(result).toEqual({ succeeded: 5, retrying: 5, cancelled: 0 });
      for (const eventId of eventIds) {
        if (failFirst.has(eventId)) expect(await bed.client.workflow.getHandle(webhookDeliveryWorkflowId(endpointId, eventId)).result()).toBe('succeeded');
        const attempts = await attemptsOf(database.db, endpointId, eventId);
        if (!failFirst.has(eventId)) {
          expect(attempts.map((a) => [a.attempt, a.status_code, a.status])).toEqual([[1, 204, 'succeeded']]);
          continue;
        }
        expect(attempts.map((a) => [a.attempt, a.status_code, a.status])).toEqual([
          [1, 500, 'succeeded'],
          [2, 204, 'succeeded'],
        ]);
        // Never early; and the retry run's wait ends exactly a minute after the failed attempt (its own clock, not
        // the wall clock's gap between the two attempts, which grows with the machine's load).
        expect(secondsBetween(attempts[0]!.attempted_at, attempts[1]!.attempted_at)).toBeGreaterThanOrEqual(60);
        const retryRun = bed.client.workflow.getHandle(webhookDeliveryWorkflowId(endpointId, eventId));
        const { failedAt, waitEndsAt } = await firstWaitOf(retryRun);
        expect(waitEndsAt - failedAt).toBe(FIRST_RETRY_DELAY_MS);
      }
      expect(receiver.total()).toBe(15);
    } finally {
      await receiver.close();
    }
  });
});
