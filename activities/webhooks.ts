import { request } from 'undici';
import { findEvent } from '../db/shared/events.js';
import {
  createDeliveries,
  findDeliveryTarget,
  finishDelivery,
  noteEndpointOutcome,
  recordAttempt,
  setEndpointEnabled,
  subscribedEndpoints,
} from '../db/webhooks/webhooks.js';
import { ATTEMPT_TIMEOUT_MS, deliveryBody, DISABLE_AFTER_MS, RESPONSE_EXCERPT_BYTES } from '../src/webhooks/delivery.js';
import { createGuardedDispatcher } from '../src/webhooks/guardedDispatcher.js';
import { signedHeaders } from '../src/webhooks/signing.js';
import type { WebhookTestEventData } from '../src/events/eventTypes.js';
import type { ActivityDeps } from './deps.js';

export type WebhooksActivities = ReturnType<typeof createWebhooksActivities>;

export type AttemptOutcome = 'succeeded' | 'failed' | 'endpoint-disabled';

async function excerpt(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_EXCERPT_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
}

export function createWebhooksActivities({ db, clock, webhooks }: ActivityDeps) {
  const dispatcher = createGuardedDispatcher({ allowLoopback: webhooks.allowInsecureLocal, connectTimeoutMs: ATTEMPT_TIMEOUT_MS });

  return {
    /** One delivery per subscribed, enabled endpoint; a repeated call returns the same ones. */
    async createWebhookDeliveries(eventId: string): Promise<Array<{ deliveryId: number; endpointId: number }>> {
      const event = await findEvent(db, eventId);
      if (!event) return [];
      const target = event.type === 'webhook.test' ? (event.data as WebhookTestEventData).endpointId : undefined;
      const endpoints = await subscribedEndpoints(db, { guildId: event.guildId, type: event.type, targetEndpointId: target });
      return createDeliveries(db, eventId, endpoints, deliveryBody(event));
    },

    /**
     * One attempt: POST the stored body, signed now with the endpoint's current secret; any 2xx within
     * 10 s succeeds, anything else (status, timeout, refused address, TLS, redirect) fails. `attemptAt` is
     * the workflow's time, so the day-long failure streak is measured on the same clock as the retries.
     */
    async attemptWebhookDelivery(deliveryId: number, attempt: number, attemptAt: number): Promise<AttemptOutcome> {
      const target = await findDeliveryTarget(db, deliveryId);
      if (!target || !target.enabled) return 'endpoint-disabled';
      const started = performance.now();
      const headers = signedHeaders(target.secret, target.event_id, Math.floor(clock.now().getTime() / 1000), target.body);
      let statusCode: number | null = null;
      let error: string | null = null;
      let responseExcerpt: string | null = null;
      try {
        const res = await request(target.url, {
          method: 'POST',
          body: target.body,
          headers: { 'content-type': 'application/json', 'user-agent': 'community-bot-webhooks/1', ...headers },
          dispatcher,
          headersTimeout: ATTEMPT_TIMEOUT_MS,
          bodyTimeout: ATTEMPT_TIMEOUT_MS,
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        statusCode = res.statusCode;
        responseExcerpt = await excerpt(res.body);
        res.body.destroy();
        if (statusCode >= 300 && statusCode < 400) error = 'redirects are not followed';
      } catch (err) {
        error = (err as Error).message.slice(0, 500);
      }
      const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
      await recordAttempt(db, {
        deliveryId,
        attempt,
        attemptedAt: new Date(attemptAt),
        durationMs: Math.round(performance.now() - started),
        statusCode,
        error,
        responseExcerpt,
      });
      const failingSince = await noteEndpointOutcome(db, target.endpoint_id, ok, new Date(attemptAt));
      if (!ok && failingSince && attemptAt - failingSince.getTime() >= DISABLE_AFTER_MS) {
        await setEndpointEnabled(db, target.endpoint_id, false, 'failing');
      }
      return ok ? 'succeeded' : 'failed';
    },

    async finishWebhookDelivery(deliveryId: number, status: 'succeeded' | 'failed' | 'cancelled'): Promise<void> {
      await finishDelivery(db, deliveryId, status, clock.now());
    },
  };
}
