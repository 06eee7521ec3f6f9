import { ParentClosePolicy, patched, proxyActivities, proxyLocalActivities, startChild } from '@temporalio/workflow';
import type { BankActivities } from '../activities/bank.js';
import type { WebhooksActivities } from '../activities/webhooks.js';
import { operationAttributes } from '../src/core/temporal/searchAttributes.js';
import type { EventFanoutInput } from '../src/events/ids.js';
import { webhookDeliveryWorkflowId } from '../src/webhooks/ids.js';
import { BOOKKEEPING_STEP, DAY_LONG_PLATFORM_EFFECT } from './activityProfiles.js';
import { webhookDelivery } from './webhookDelivery.js';

const { postBankLog } = proxyActivities<BankActivities>(DAY_LONG_PLATFORM_EFFECT);
const { createWebhookDeliveries } = proxyLocalActivities<WebhooksActivities>(BOOKKEEPING_STEP);

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
    await startChild(webhookDelivery, {
      workflowId: webhookDeliveryWorkflowId(endpointId, input.eventId),
      args: [{ deliveryId, firstAttempt: 1 }],
      // The deliveries outlive the fan-out: they may retry for a day.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: operationAttributes(input.guildId, 'webhook.delivery'),
      staticSummary: `Deliver ${input.type} ${input.eventId} to endpoint ${endpointId}`,
    });
  }
}
