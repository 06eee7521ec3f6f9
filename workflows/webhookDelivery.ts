import { patched, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { WebhooksActivities } from '../activities/webhooks.js';
import { FIRST_RETRY_DELAY_MS, MAX_ATTEMPTS, RETRY_DELAYS, type DeliveryStatus, type WebhookDeliveryInput } from '../src/webhooks/ids.js';
import { BOOKKEEPING_STEP, SINGLE_ATTEMPT } from './activityProfiles.js';

// One HTTP attempt per activity, never retried by Temporal: the spec's schedule is the workflow's timers.
const { attemptWebhookDelivery } = proxyActivities<WebhooksActivities>(SINGLE_ATTEMPT);
const { finishWebhookDelivery } = proxyLocalActivities<WebhooksActivities>(BOOKKEEPING_STEP);

/** One event to one endpoint: up to 7 attempts, 1 min, 5 min, 30 min, 2 h, 6 h and 24 h apart. */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<DeliveryStatus> {
  const { deliveryId, firstAttempt } = input;
  let round = 0;
  // Started by a batch whose attempt failed: wait out the first delay from that attempt's end, then go on.
  if (input.firstAttemptFailedAt !== undefined && patched('retries-after-batch-attempt')) {
    const wait = Math.max(0, input.firstAttemptFailedAt + FIRST_RETRY_DELAY_MS - Date.now());
    await sleep(wait, { summary: `attempt ${firstAttempt + 1} of ${MAX_ATTEMPTS} in ${RETRY_DELAYS[0]} (attempt ${firstAttempt} failed in a batch)` });
    round = 1;
  }
  for (; round < MAX_ATTEMPTS; round++) {
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
