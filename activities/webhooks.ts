import { Context } from '@temporalio/activity';
import { findBatchEvents, findEvent, type StoredEvent } from '../db/shared/events.js';
import { batchPlan } from '../db/webhooks/batches.js';
import { createDeliveries, findDeliveryTarget, finishDelivery, recordAttempt, subscribedEndpoints } from '../db/webhooks/webhooks.js';
import { noteDelivered } from '../src/core/metrics.js';
import { ATTEMPT_TIMEOUT_MS, deliveryBody } from '../src/webhooks/delivery.js';
import { noteFailingStreak } from '../src/webhooks/failingStreak.js';
import { attemptFirstDeliveries, createFirstAttemptLog } from '../src/webhooks/firstAttempts.js';
import { createGuardedDispatcher } from '../src/webhooks/guardedDispatcher.js';
import type { EndpointBatchOutcome, WebhookBatchPlan } from '../src/webhooks/ids.js';
import { sendAttempt } from '../src/webhooks/sendAttempt.js';
import { signingSecrets } from '../src/webhooks/signingSecrets.js';
import type { WebhookTestEventData } from '../src/events/eventTypes.js';
import type { ActivityDeps } from './deps.js';

export type WebhooksActivities = ReturnType<typeof createWebhooksActivities>;

export type AttemptOutcome = 'succeeded' | 'failed' | 'endpoint-disabled';

export function createWebhooksActivities({ db, clock, webhooks }: ActivityDeps) {
  const dispatcher = createGuardedDispatcher({ allowLoopback: webhooks.allowInsecureLocal, connectTimeoutMs: ATTEMPT_TIMEOUT_MS });
  const firstAttemptLog = createFirstAttemptLog(db);

  /** One delivery per subscribed, enabled endpoint as of now; a repeated call returns the same ones. */
  async function createDeliveriesNow(event: StoredEvent) {
    const target = event.type === 'webhook.test' ? (event.data as WebhookTestEventData).endpointId : undefined;
    const endpoints = await subscribedEndpoints(db, { guildId: event.guildId, type: event.type, targetEndpointId: target });
    return createDeliveries(db, event.id, endpoints, deliveryBody(event));
  }

  return {
    /** For fan-outs started before deliveries were recorded at commit (workflow eventFanout). */
    async createWebhookDeliveries(eventId: string): Promise<Array<{ deliveryId: number; endpointId: number }>> {
      const event = await findEvent(db, eventId);
      return event ? createDeliveriesNow(event) : [];
    },

    /**
     * What a batch has to do: the endpoints its deliveries go to, and how many bank log lines it posts. A test
     * event, and an event written before deliveries were recorded at commit, gets its deliveries here.
     */
    async planWebhookBatch(batchId: number): Promise<WebhookBatchPlan> {
      // Both reads at once: events without deliveries recorded at commit are rare, and only then is the plan read again.
      const [late, plan] = await Promise.all([findBatchEvents(db, batchId, { deliveriesAtCommit: false }), batchPlan(db, batchId, 'bank.transaction')]);
      for (const event of late) await createDeliveriesNow(event);
      const { endpointIds, events } = late.length === 0 ? plan : await batchPlan(db, batchId, 'bank.transaction');
      return { endpointIds, bankLogEvents: events };
    },

    /** The first attempts of the batch's deliveries to one endpoint (src/webhooks/firstAttempts.ts). */
    async attemptBatchDeliveries(batchId: number, endpointId: number, startedAt: number): Promise<EndpointBatchOutcome> {
      const context = Context.current();
      return attemptFirstDeliveries(
        { db, clock, dispatcher, log: firstAttemptLog },
        { batchId, endpointId, startedAt, signal: context.cancellationSignal, heartbeat: () => context.heartbeat() },
      );
    },

    /**
     * One attempt of a retry run. `attemptAt` is the workflow's time, so the day-long failure streak is
     * measured on the same clock as the retries.
     */
    async attemptWebhookDelivery(deliveryId: number, attempt: number, attemptAt: number): Promise<AttemptOutcome> {
      const target = await findDeliveryTarget(db, deliveryId);
      if (!target || !target.enabled) return 'endpoint-disabled';
      // Delivered after all: the batch try that dialled it logged its success after the next try had given the
      // attempt up as interrupted and started this run (db/webhooks/batches.ts). An operator's resend sets the
      // delivery pending again before its run starts, so it is dialled.
      if (target.status === 'succeeded') return 'succeeded';
      // The activity's clock decides whether a rotation's overlap still lasts, as it dates the signature.
      const now = clock.now();
      const secrets = signingSecrets({ secret: target.secret, previousSecret: target.previous_secret, previousSecretExpiresAt: target.previous_secret_expires_at }, now);
      const result = await sendAttempt(dispatcher, { url: target.url, secrets, eventId: target.event_id, body: target.body }, Math.floor(now.getTime() / 1000));
      const attemptedAt = new Date(attemptAt);
      await recordAttempt(db, { deliveryId, attempt, attemptedAt, ...result });
      if (result.ok) noteDelivered(target.created_at, attemptedAt, result.durationMs);
      await noteFailingStreak(db, target.endpoint_id, [{ ok: result.ok, at: attemptedAt }]);
      return result.ok ? 'succeeded' : 'failed';
    },

    async finishWebhookDelivery(deliveryId: number, status: 'succeeded' | 'failed' | 'cancelled'): Promise<void> {
      await finishDelivery(db, deliveryId, status, clock.now());
    },
  };
}
