import { ParentClosePolicy, patched, proxyActivities, proxyLocalActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { operationAttributes } from '../src/core/temporal/searchAttributes.js';
import { webhookDeliveryWorkflowId } from '../src/webhooks/delivery.js';
import type { webhookDelivery } from './webhookDelivery.js';

export interface EventFanoutInput {
  eventId: string;
  type: string;
  guildId: string;
}

const { postBankLog } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  // A platform outage is retried for a day; the post itself is idempotent by event id.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
  scheduleToCloseTimeout: '1 day',
});
const { createWebhookDeliveries } = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds' });

/**
 * Everything one event sets off: the bank log line, and one delivery workflow per subscribed endpoint.
 * The deliveries start alongside the bank log post, not after it: a platform outage retries the post for
 * up to a day and must not hold the customer's webhooks back.
 */
export async function eventFanout(input: EventFanoutInput): Promise<void> {
  const bankLog = input.type === 'bank.transaction';
  if (patched('deliveries-alongside-bank-log')) {
    await Promise.all([startDeliveries(input), bankLog ? postBankLog(input.eventId) : undefined]);
    return;
  }
  // Runs recorded before that: the post first; before 'webhook-deliveries', no deliveries at all.
  if (bankLog) await postBankLog(input.eventId);
  if (patched('webhook-deliveries')) await startDeliveries(input);
}

async function startDeliveries(input: EventFanoutInput): Promise<void> {
  for (const { deliveryId, endpointId } of await createWebhookDeliveries(input.eventId)) {
    await startChild<typeof webhookDelivery>('webhookDelivery', {
      workflowId: webhookDeliveryWorkflowId(endpointId, input.eventId),
      args: [{ deliveryId, firstAttempt: 1 }],
      // The deliveries outlive the fan-out: they may retry for a day.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: operationAttributes(input.guildId, 'webhook.delivery'),
      staticSummary: `Deliver ${input.type} ${input.eventId} to endpoint ${endpointId}`,
    });
  }
}
