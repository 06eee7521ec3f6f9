import { proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { WebhooksActivities } from '../activities/webhooks.js';
import { MAX_ATTEMPTS, RETRY_DELAYS, type DeliveryStatus, type WebhookDeliveryInput } from '../src/webhooks/ids.js';
import { BOOKKEEPING_STEP, SINGLE_ATTEMPT } from './activityProfiles.js';

// One HTTP attempt per activity, never retried by Temporal: the spec's schedule is the workflow's timers.
const { attemptWebhookDelivery } = proxyActivities<WebhooksActivities>(SINGLE_ATTEMPT);
const { finishWebhookDelivery } = proxyLocalActivities<WebhooksActivities>(BOOKKEEPING_STEP);

/** One event to one endpoint: up to 7 attempts, 1 min, 5 min, 30 min, 2 h, 6 h and 24 h apart. */
export async function webhookDelivery({ deliveryId, firstAttempt }: WebhookDeliveryInput): Promise<DeliveryStatus> {
  for (let round = 0; round < MAX_ATTEMPTS; round++) {
    const outcome = await attemptWebhookDelivery(deliveryId, firstAttempt + round, Date.now());
    if (outcome !== 'failed') {
      const status = outcome === 'succeeded' ? 'succeeded' : 'cancelled';
      await finishWebhookDelivery(deliveryId, status);
      return status;
    }
    const delay = RETRY_DELAYS[round];
    if (delay) await sleep(delay, { summary: `attempt ${round + 2} of ${MAX_ATTEMPTS} in ${delay}` });
  }
  await finishWebhookDelivery(deliveryId, 'failed');
  return 'failed';
}
