import { describe, expect, it } from 'vitest';
import { claimEventBatch } from '../../db/shared/events.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { webhookBatchWorkflowId, webhookDeliveryWorkflowId } from '../../src/webhooks/ids.js';
import { createTestGuild } from '../harness/fixtures.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';
import { commitEvents, startEventReceiver } from '../webhooks/eventReceiver.js';

// The time-skipping server fires the retry run's timers, a day and a half of them, without waiting for them
// (a server of its own: see webhookDeliveryBatch.test.ts).
const bed = useTimeSkippingTestBed({ taskQueue: 'webhook-batch-schedule-test', temporal: 'dev-server' });
const { database, taskQueue } = bed;

async function batchOf(count: number, url: string) {
  const guild = await createTestGuild(database.db);
  const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url, events: ['members.joined'], secret: 'whsec_batch' });
  const eventIds = await commitEvents(database.db, guild.id, count);
  const claimed = await claimEventBatch(database.db, eventIds);
  return { guildId: guild.id, endpointId: endpoint.id, eventIds, batchId: claimed!.batchId };
}

const attemptsOf = async (endpointId: number, eventId: string) =>
  database.db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.attempt', 'a.status_code', 'a.error', 'a.attempted_at', 'd.status'])
    .where('d.endpoint_id', '=', endpointId)
    .where('d.event_id', '=', eventId)
    .orderBy('a.attempt')
    .execute();

const seconds = (a: Date, b: Date) => Math.round((b.getTime() - a.getTime()) / 1000);

describe('retries after a failed batch attempt', () => {
  it('go on from attempt 2 to attempt 7 on the full schedule, then the delivery fails', async () => {
    const receiver = await startEventReceiver(() => 503);
    try {
      const { guildId, endpointId, eventIds, batchId } = await batchOf(1, receiver.url);
      await bed.client.workflow.execute('webhookBatch', { workflowId: webhookBatchWorkflowId(guildId, batchId), taskQueue, args: [{ batchId, guildId }] });
      const retries = bed.client.workflow.getHandle(webhookDeliveryWorkflowId(endpointId, eventIds[0]!));
      expect(await retries.result()).toBe('failed');
      const attempts = await attemptsOf(endpointId, eventIds[0]!);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(attempts.slice(1).map((a, i) => seconds(attempts[i]!.attempted_at, a.attempted_at))).toEqual([60, 300, 1800, 7200, 21600, 86400]);
      expect(attempts.at(-1)!.status).toBe('failed');
      expect(receiver.total()).toBe(7);
      const endpoint = await database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirstOrThrow();
      expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    } finally {
      await receiver.close();
    }
  });
});
