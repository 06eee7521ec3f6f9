import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, patched, proxyActivities, proxyLocalActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { WebhooksActivities } from '../activities/webhooks.js';
import { GUILD_ID, operationAttributes } from '../src/core/temporal/searchAttributes.js';
import { webhookDeliveryWorkflowId, type EndpointBatchOutcome, type WebhookBatchInput, type WebhookBatchResult } from '../src/webhooks/ids.js';
import { BATCH_OF_ATTEMPTS, BOOKKEEPING_STEP } from './activityProfiles.js';
import { postBatchBankLog } from './batchBankLog.js';
import { webhookDelivery } from './webhookDelivery.js';

const { planWebhookBatch } = proxyLocalActivities<WebhooksActivities>(BOOKKEEPING_STEP);
const { attemptBatchDeliveries } = proxyActivities<WebhooksActivities>(BATCH_OF_ATTEMPTS);
const PLAN_AT_LAUNCH_PATCH = 'webhook-batch-plan-at-launch';

/**
 * Everything a batch of committed events of one guild sets off: the first attempt of each webhook delivery,
 * one activity per endpoint (a slow receiver holds back only its own), and the bank's log lines alongside
 * (workflows/batchBankLog.ts; a platform outage holds back the post, never the webhooks). A delivery whose first
 * attempt failed goes on in its own run `webhook/<endpoint>/<event>`, with the spec's timers. A bank log the
 * platform refuses for good is the result's `bankLogRefused`, not a failed run.
 */
export async function webhookBatch({ batchId, guildId, plan: launched }: WebhookBatchInput): Promise<WebhookBatchResult> {
  // A plan read with the claim saves the plan step (a local activity and its statement) before the first attempts.
  const plan = launched && patched(PLAN_AT_LAUNCH_PATCH) ? launched : await planWebhookBatch(batchId);
  const [outcomes, bankLogRefused] = await Promise.all([
    Promise.all(plan.endpointIds.map((endpointId) => firstAttempts(batchId, guildId, endpointId))),
    plan.bankLogEvents > 0 ? postBatchBankLog(batchId) : undefined,
  ]);
  return {
    succeeded: outcomes.reduce((n, o) => n + o.succeeded, 0),
    retrying: outcomes.reduce((n, o) => n + o.failed.length, 0),
    cancelled: outcomes.reduce((n, o) => n + o.cancelled, 0),
    ...(bankLogRefused && { bankLogRefused }),
  };
}

/**
 * The retry runs carry the search attributes wherever the batch does: on a server without them registered
 * (the time-skipping test server) a child start that names them would never start.
 */
const retryAttributes = (guildId: string) =>
  workflowInfo().typedSearchAttributes.get(GUILD_ID) === undefined ? [] : operationAttributes(guildId, 'webhook.delivery');

async function firstAttempts(batchId: number, guildId: string, endpointId: number): Promise<EndpointBatchOutcome> {
  const outcome = await attemptBatchDeliveries.executeWithOptions(
    { ...BATCH_OF_ATTEMPTS, summary: `first attempts to endpoint ${endpointId}` },
    [batchId, endpointId, Date.now()],
  );
  await Promise.all(
    outcome.failed.map(async (f) => {
      try {
        await startChild(webhookDelivery, {
          workflowId: webhookDeliveryWorkflowId(endpointId, f.eventId),
          args: [{ deliveryId: f.deliveryId, firstAttempt: 1, firstAttemptFailedAt: f.failedAt }],
          // The retries outlive the batch: they may go on for a day.
          parentClosePolicy: ParentClosePolicy.ABANDON,
          typedSearchAttributes: retryAttributes(guildId),
          staticSummary: `Retry ${f.eventType} ${f.eventId} to endpoint ${endpointId}: attempt 1 failed in batch ${batchId}`,
        });
      } catch (err) {
        // Started by an earlier try of this step (the activity ran again after a crash): it runs already.
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    }),
  );
  return outcome;
}
