import { describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../activities/deps.js';
import { createWebhooksActivities } from '../../activities/webhooks.js';
import { insertEvent } from '../../db/shared/events.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { fixedClock } from '../../src/core/clock.js';
import { rotateEndpointSecret } from '../../src/webhooks/endpointManagement.js';
import { attemptFirstDeliveries, createFirstAttemptLog } from '../../src/webhooks/firstAttempts.js';
import { createGuardedDispatcher } from '../../src/webhooks/guardedDispatcher.js';
import { verifyWebhook } from '../../src/webhooks/verifyWebhook.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild } from '../harness/fixtures.js';
import { startReceiver, type ReceivedRequest } from '../harness/receiver.js';
import { claimedBatch } from './batchFixture.js';

const database = useTestDatabase();
const T0 = new Date('2026-05-01T12:00:00.000Z');
const HOUR = 3_600_000;

const management = (clock: ReturnType<typeof fixedClock>) => ({ db: database.db, clock, actor: { type: 'system' } as const, allowInsecureLocal: true });

/** Each `v1=` value of the request on its own, and which of the secrets verifies it (at the signing time). */
function verifiedBy(request: ReceivedRequest, secrets: string[]): string[][] {
  const signature = String(request.headers['service-signature']);
  const now = new Date(Number(request.headers['service-webhook-timestamp']) * 1000);
  return signature.split(' ').map((value) => secrets.filter((secret) => verifyWebhook(request.body, { ...request.headers, 'service-signature': value }, secret, { now }).ok));
}

const storedHeaders = (deliveryId: number) =>
  database.db.selectFrom('webhook_attempts').select(['attempt', 'request_headers', 'endpoint_id']).where('delivery_id', '=', deliveryId).orderBy('attempt').execute();

describe('a secret rotation with a 24-hour overlap', () => {
  it("signs a retry attempt with both secrets while the overlap lasts and with the new one alone after it, by the activity's clock", async () => {
    const receiver = await startReceiver([500]);
    try {
      const guild = await createTestGuild(database.db);
      const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: receiver.url, events: [], secret: 'whsec_old' });
      const clock = fixedClock(T0);
      const { secret, previousSecretExpiresAt } = await rotateEndpointSecret(management(clock), guild.id, endpoint.id, '24h');
      expect(previousSecretExpiresAt).toEqual(new Date(T0.getTime() + 24 * HOUR));
      await insertEvent(database.db, { type: 'members.joined', guildId: guild.id, createdAt: T0, data: {} });
      const delivery = await database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
      const activities = createWebhooksActivities({ db: database.db, clock, webhooks: { allowInsecureLocal: true } } as Partial<ActivityDeps> as ActivityDeps);

      clock.set(new Date(T0.getTime() + 23 * HOUR));
      expect(await activities.attemptWebhookDelivery(delivery.id, 1, clock.now().getTime())).toBe('failed');
      clock.set(new Date(T0.getTime() + 24 * HOUR));
      expect(await activities.attemptWebhookDelivery(delivery.id, 2, clock.now().getTime())).toBe('failed');

      const [during, after] = receiver.received;
      expect(verifiedBy(during!, [secret, 'whsec_old'])).toEqual([[secret], ['whsec_old']]);
      expect(verifiedBy(after!, [secret, 'whsec_old'])).toEqual([[secret]]);
      // Each attempt keeps the headers it sent, signature included, for the delivery page.
      const stored = await storedHeaders(delivery.id);
      expect(stored.map((a) => a.request_headers?.['Service-Signature'])).toEqual([during!.headers['service-signature'], after!.headers['service-signature']]);
      expect(stored[0]!.request_headers).toEqual({
        'Service-Webhook-Id': during!.headers['service-webhook-id'],
        'Service-Webhook-Timestamp': during!.headers['service-webhook-timestamp'],
        'Service-Signature': during!.headers['service-signature'],
      });
      expect(stored.map((a) => a.endpoint_id)).toEqual([endpoint.id, endpoint.id]);
    } finally {
      await receiver.close();
    }
  });

  it('signs a batch’s first attempts with both secrets during the overlap, and one secret after a rotation without overlap', async () => {
    const receiver = await startReceiver([204]);
    try {
      const clock = fixedClock(T0);
      const deps = { db: database.db, clock, dispatcher: createGuardedDispatcher({ allowLoopback: true, connectTimeoutMs: 1_000 }), log: createFirstAttemptLog(database.db) };
      const run = (batchId: number, endpointId: number) =>
        attemptFirstDeliveries(deps, { batchId, endpointId, startedAt: clock.now().getTime(), signal: new AbortController().signal, heartbeat: () => {} });

      const overlapping = await claimedBatch(database.db, 1, receiver.url);
      const first = await rotateEndpointSecret(management(clock), overlapping.guildId, overlapping.endpointId, '24h');
      clock.advance(HOUR);
      expect(await run(overlapping.batchId, overlapping.endpointId)).toMatchObject({ succeeded: 1 });
      expect(verifiedBy(receiver.received[0]!, [first.secret, 'whsec_batch'])).toEqual([[first.secret], ['whsec_batch']]);

      const immediate = await claimedBatch(database.db, 1, receiver.url);
      const second = await rotateEndpointSecret(management(clock), immediate.guildId, immediate.endpointId, 'now');
      expect(second.previousSecretExpiresAt).toBeNull();
      expect(await run(immediate.batchId, immediate.endpointId)).toMatchObject({ succeeded: 1 });
      expect(verifiedBy(receiver.received[1]!, [second.secret, 'whsec_batch'])).toEqual([[second.secret]]);
      const delivery = await database.db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', immediate.eventIds[0]!).executeTakeFirstOrThrow();
      expect((await storedHeaders(delivery.id))[0]!.request_headers?.['Service-Signature']).toBe(receiver.received[1]!.headers['service-signature']);
    } finally {
      await receiver.close();
    }
  });

  it('drops an older previous secret at a second rotation: two secrets sign at most', async () => {
    const receiver = await startReceiver([204]);
    try {
      const guild = await createTestGuild(database.db);
      const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: receiver.url, events: [], secret: 'whsec_first' });
      const clock = fixedClock(T0);
      const second = await rotateEndpointSecret(management(clock), guild.id, endpoint.id, '24h');
      const third = await rotateEndpointSecret(management(clock), guild.id, endpoint.id, '24h');
      await insertEvent(database.db, { type: 'members.joined', guildId: guild.id, createdAt: T0, data: {} });
      const delivery = await database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
      const activities = createWebhooksActivities({ db: database.db, clock, webhooks: { allowInsecureLocal: true } } as Partial<ActivityDeps> as ActivityDeps);
      expect(await activities.attemptWebhookDelivery(delivery.id, 1, T0.getTime())).toBe('succeeded');
      expect(verifiedBy(receiver.received[0]!, [third.secret, second.secret, 'whsec_first'])).toEqual([[third.secret], [second.secret]]);
    } finally {
      await receiver.close();
    }
  });
});
