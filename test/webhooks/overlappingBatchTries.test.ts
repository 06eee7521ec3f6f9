import { describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../activities/deps.js';
import { createWebhooksActivities } from '../../activities/webhooks.js';
import { INTERRUPTED_ATTEMPT } from '../../db/webhooks/batches.js';
import { fixedClock } from '../../src/core/clock.js';
import { attemptFirstDeliveries, createFirstAttemptLog } from '../../src/webhooks/firstAttempts.js';
import { createGuardedDispatcher } from '../../src/webhooks/guardedDispatcher.js';
import { useTestDatabase } from '../harness/database.js';
import { attemptsOf, claimedBatch } from './batchFixture.js';
import { startEventReceiver } from './eventReceiver.js';

const database = useTestDatabase();
const T0 = new Date('2026-11-01T10:00:00Z');

/**
 * Temporal times a batch step out when its heartbeats stop reaching the server (a frozen frontend) and starts the
 * next try while the first is still dialling on the same worker. The next try gives the dial up as interrupted and
 * starts the delivery's retry run; the first try's answer arrives after that.
 */
describe('two tries of one batch step at once', () => {
  const overlappingTries = async (firstAnswer: number) => {
    const receiver = await startEventReceiver((_, nth) => (nth === 1 ? 'hold' : 204));
    const clock = fixedClock(T0);
    const deps = { db: database.db, clock, dispatcher: createGuardedDispatcher({ allowLoopback: true, connectTimeoutMs: 1_000 }), log: createFirstAttemptLog(database.db) };
    const { batchId, endpointId, eventIds } = await claimedBatch(database.db, 1, receiver.url);
    const run = () => attemptFirstDeliveries(deps, { batchId, endpointId, startedAt: clock.now().getTime(), signal: new AbortController().signal, heartbeat: () => {} });

    const first = run();
    for (let i = 0; i < 400 && receiver.held.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const second = await run();
    expect(second.failed).toHaveLength(1);
    expect((await attemptsOf(database.db, endpointId, eventIds[0]!)).map((a) => a.error)).toEqual([INTERRUPTED_ATTEMPT]);
    receiver.held[0]!.writeHead(firstAnswer).end('late');
    await first;
    const delivery = await database.db.selectFrom('webhook_deliveries').select(['id', 'attempts', 'status']).where('event_id', '=', eventIds[0]!).executeTakeFirstOrThrow();
    const activities = createWebhooksActivities({ db: database.db, clock, webhooks: { allowInsecureLocal: true } } as Partial<ActivityDeps> as ActivityDeps);
    return { receiver, endpointId, eventId: eventIds[0]!, delivery, activities };
  };

  it("logs the first try's success over the interrupted mark and closes the delivery, so its retry run sends nothing", async () => {
    const { receiver, endpointId, eventId, delivery, activities } = await overlappingTries(204);
    try {
      expect(delivery).toMatchObject({ attempts: 1, status: 'succeeded' });
      const attempts = await attemptsOf(database.db, endpointId, eventId);
      expect(attempts.map((a) => [a.attempt, a.status_code, a.error, a.status])).toEqual([[1, 204, null, 'succeeded']]);

      // The retry run the second try started: its next attempt finds the delivery delivered and does not dial.
      expect(await activities.attemptWebhookDelivery(delivery.id, 2, T0.getTime() + 60_000)).toBe('succeeded');
      await activities.finishWebhookDelivery(delivery.id, 'succeeded');
      expect(receiver.received.get(eventId)).toBe(1);
      const after = await database.db.selectFrom('webhook_deliveries').select(['attempts', 'status', 'completed_at']).where('id', '=', delivery.id).executeTakeFirstOrThrow();
      expect(after).toEqual({ attempts: 1, status: 'succeeded', completed_at: attempts[0]!.attempted_at });
    } finally {
      await receiver.close();
    }
  });

  it("logs the first try's failure over the interrupted mark and leaves the delivery to its retry run, which sends it", async () => {
    const { receiver, endpointId, eventId, delivery, activities } = await overlappingTries(503);
    try {
      expect(delivery).toMatchObject({ attempts: 1, status: 'pending' });
      expect((await attemptsOf(database.db, endpointId, eventId)).map((a) => [a.attempt, a.status_code, a.error])).toEqual([[1, 503, null]]);
      expect(await activities.attemptWebhookDelivery(delivery.id, 2, T0.getTime() + 60_000)).toBe('succeeded');
      expect(receiver.received.get(eventId)).toBe(2);
    } finally {
      await receiver.close();
    }
  });
});
