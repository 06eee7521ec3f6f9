import { ParentClosePolicy, patched, proxyActivities, proxyLocalActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { operationAttributes } from '../src/temporal/searchAttributes.js';
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

/** Everything one event sets off: the bank log line, and one delivery workflow per subscribed endpoint. */
export async function eventFanout(input: EventFanoutInput): Promise<void> {
  if (input.type === 'bank.transaction') await postBankLog(input.eventId);
  // Runs recorded before webhook deliveries existed replay without them.
  if (patched('webhook-deliveries')) {
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
}
