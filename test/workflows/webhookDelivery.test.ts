import { describe, expect, it } from 'vitest';
import { insertEvent } from '../../db/shared/events.js';
import { createDeliveries, insertEndpoint } from '../../db/webhooks/webhooks.js';
import { deliveryBody } from '../../src/webhooks/delivery.js';
import { verifyWebhook } from '../../src/webhooks/verifyWebhook.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';
import { createTestGuild } from '../harness/fixtures.js';
import { startReceiver } from '../harness/receiver.js';

// The time-skipping server fires the 1-minute to 24-hour retry timers without waiting for them.
const bed = useTimeSkippingTestBed({ taskQueue: 'webhook-delivery-test', temporal: 'dev-server' });
const { database, taskQueue } = bed;
const secret = 'whsec_time-skipping';

async function deliveryTo(url: string) {
  const guild = await createTestGuild(database.db);
  const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url, events: [], secret });
  const event = await insertEvent(database.db, {
    type: 'webhook.test',
    guildId: guild.id,
    createdAt: new Date('2026-11-22T12:00:00Z'),
    data: { endpointId: endpoint.id, message: 'hello' },
  });
  const [delivery] = await createDeliveries(database.db, event.id, [endpoint.id], deliveryBody(event));
  return { event, endpoint, deliveryId: delivery!.deliveryId };
}

const attemptsOf = (deliveryId: number) =>
  database.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();

/**
 * The retry timers the run started, in seconds, read from its history: the schedule itself, not the time between
 * attempts as the activity's wall clock saw it (which adds however long each attempt took to start and run).
 */
async function retryTimersInSeconds(workflowId: string): Promise<number[]> {
  const { events } = await bed.client.workflow.getHandle(workflowId).fetchHistory();
  return (events ?? []).filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
}

describe('webhook delivery', () => {
  it('retries after 1 and 5 minutes, sends byte-identical signed bodies, and stops at the first 2xx', async () => {
    const receiver = await startReceiver([500, 503, 204]);
    try {
      const { event, deliveryId } = await deliveryTo(receiver.url);
      const result = await bed.client.workflow.execute('webhookDelivery', {
        workflowId: `webhook/test/${deliveryId}`,
        taskQueue,
        args: [{ deliveryId, firstAttempt: 1 }],
      });
      expect(result).toBe('succeeded');
      expect(receiver.received).toHaveLength(3);
      const bodies = new Set(receiver.received.map((r) => r.body));
      expect(bodies.size).toBe(1);
      expect(JSON.parse(receiver.received[0]!.body)).toEqual({
        id: event.id,
        type: 'webhook.test',
        createdAt: '2026-11-22T12:00:00.000Z',
        guildId: event.guildId,
        data: { endpointId: expect.any(Number), message: 'hello' },
      });
      for (const r of receiver.received) {
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.headers['service-webhook-id']).toBe(event.id);
        const now = new Date(Number(r.headers['service-webhook-timestamp']) * 1000);
        expect(verifyWebhook(r.body, r.headers, secret, { now })).toMatchObject({ ok: true, event: { id: event.id } });
      }
      const attempts = await attemptsOf(deliveryId);
      expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
        [1, 500],
        [2, 503],
        [3, 204],
      ]);
      expect(attempts[0]!.response_excerpt).toBe('answer 1');
      expect(await retryTimersInSeconds(`webhook/test/${deliveryId}`)).toEqual([60, 300]);
      const delivery = await database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirstOrThrow();
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3 });
    } finally {
      await receiver.close();
    }
  });

  it('makes 7 attempts on the spec schedule, then fails, and disables an endpoint failing for a day', async () => {
    const receiver = await startReceiver([{ status: 302, headers: { location: 'https://example.invalid/' } }, 500]);
    try {
      const { endpoint, deliveryId } = await deliveryTo(receiver.url);
      const result = await bed.client.workflow.execute('webhookDelivery', {
        workflowId: `webhook/test/${deliveryId}`,
        taskQueue,
        args: [{ deliveryId, firstAttempt: 1 }],
      });
      expect(result).toBe('failed');
      const attempts = await attemptsOf(deliveryId);
      expect(attempts).toHaveLength(7);
      expect(attempts[0]).toMatchObject({ status_code: 302, error: 'redirects are not followed' });
      expect(await retryTimersInSeconds(`webhook/test/${deliveryId}`)).toEqual([60, 300, 1800, 7200, 21600, 86400]);
      const stored = await database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ enabled: false, disabled_reason: 'failing' });
      expect((await database.db.selectFrom('webhook_deliveries').select('status').where('id', '=', deliveryId).executeTakeFirstOrThrow()).status).toBe('failed');
    } finally {
      await receiver.close();
    }
  });

  it('stops the outstanding attempts of a disabled endpoint', async () => {
    const receiver = await startReceiver([500]);
    try {
      const { endpoint, deliveryId } = await deliveryTo(receiver.url);
      await database.db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: 'manual' }).where('id', '=', endpoint.id).execute();
      const result = await bed.client.workflow.execute('webhookDelivery', {
        workflowId: `webhook/test/${deliveryId}`,
        taskQueue,
        args: [{ deliveryId, firstAttempt: 1 }],
      });
      expect(result).toBe('cancelled');
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('counts a refused connection as a failed attempt', async () => {
    const closed = await startReceiver([200]);
    await closed.close();
    const { deliveryId } = await deliveryTo(closed.url);
    const handle = await bed.client.workflow.start('webhookDelivery', { workflowId: `webhook/test/${deliveryId}`, taskQueue, args: [{ deliveryId, firstAttempt: 1 }] });
    await handle.result();
    const attempts = await attemptsOf(deliveryId);
    expect(attempts).toHaveLength(7);
    expect(attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/ECONNREFUSED|connect/i) });
  });

  it('signs each attempt with the secret current at that moment (rotation takes effect at once)', async () => {
    const receiver = await startReceiver([500, 200]);
    try {
      const { endpoint, deliveryId } = await deliveryTo(receiver.url);
      const handle = await bed.client.workflow.start('webhookDelivery', { workflowId: `webhook/test/${deliveryId}`, taskQueue, args: [{ deliveryId, firstAttempt: 1 }] });
      for (let i = 0; i < 200 && receiver.received.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      await database.db.updateTable('webhook_endpoints').set({ secret: 'whsec_rotated' }).where('id', '=', endpoint.id).execute();
      expect(await handle.result()).toBe('succeeded');
      const [first, second] = receiver.received;
      const at = (r: typeof first) => ({ now: new Date(Number(r!.headers['service-webhook-timestamp']) * 1000) });
      expect(verifyWebhook(first!.body, first!.headers, secret, at(first)).ok).toBe(true);
      expect(verifyWebhook(second!.body, second!.headers, 'whsec_rotated', at(second)).ok).toBe(true);
      expect(verifyWebhook(second!.body, second!.headers, secret, at(second)).ok).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('gives up on an attempt after 10 seconds without an answer', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { deliveryId } = await deliveryTo(`http://127.0.0.1:${(silent.address() as { port: number }).port}/hang`);
      const handle = await bed.client.workflow.start('webhookDelivery', { workflowId: `webhook/test/${deliveryId}`, taskQueue, args: [{ deliveryId, firstAttempt: 1 }] });
      // The first attempt is logged once its 10-second limit passes; then the delivery is cut short here.
      for (let i = 0; i < 300 && (await attemptsOf(deliveryId)).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      await handle.terminate('test done');
      const [attempt] = await attemptsOf(deliveryId);
      expect(attempt).toMatchObject({ status_code: null, error: expect.stringMatching(/timeout|aborted/i) });
      expect(attempt!.duration_ms).toBeGreaterThanOrEqual(9_900);
      expect(attempt!.duration_ms).toBeLessThan(12_000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
