import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, patched, proxyActivities, proxyLocalActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { EventsActivities } from '../activities/events.js';
import type { WebhooksActivities } from '../activities/webhooks.js';
import { GUILD_ID, operationAttributes } from '../src/core/temporal/searchAttributes.js';
import { webhookDeliveryWorkflowId, type EndpointBatchOutcome, type WebhookBatchInput, type WebhookBatchResult } from '../src/webhooks/ids.js';
import { BATCH_OF_ATTEMPTS, BOOKKEEPING_STEP, DAY_LONG_PLATFORM_EFFECT } from './activityProfiles.js';
import { refusalCode } from './refusalCode.js';
import { webhookDelivery } from './webhookDelivery.js';

const { planWebhookBatch } = proxyLocalActivities<WebhooksActivities>(BOOKKEEPING_STEP);
const { attemptBatchDeliveries } = proxyActivities<WebhooksActivities>(BATCH_OF_ATTEMPTS);
const { postBankLogs } = proxyActivities<EventsActivities>(DAY_LONG_PLATFORM_EFFECT);

const BANK_LOG_REFUSAL_PATCH = 'webhook-batch-bank-log-refusal';
const BANK_LOG_RESUME_PATCH = 'webhook-batch-bank-log-resume';
const PLAN_AT_LAUNCH_PATCH = 'webhook-batch-plan-at-launch';

/**
 * The bank log post from patch `webhook-batch-bank-log-resume` on: it heartbeats each posted line, so a try that
 * timed out or failed mid-way resumes after the last line the server heard of (activities/events.ts) and a dead
 * worker is noticed in seconds; one try may then take as long as the platform needs for a full batch (Discord's
 * per-channel rate limit), where 30 s of posting used to end in a timeout and a retry from the first line.
 */
const RESUMING_BANK_LOG_POST = { ...DAY_LONG_PLATFORM_EFFECT, startToCloseTimeout: '10 minutes', heartbeatTimeout: '15 seconds' };

/**
 * Everything a batch of committed events of one guild sets off: the first attempt of each webhook delivery,
 * one activity per endpoint (a slow receiver holds back only its own), and the bank log lines alongside
 * (a platform outage holds back the post, never the webhooks). A delivery whose first attempt failed goes on
 * in its own run `webhook/<endpoint>/<event>`, with the spec's timers. A bank log the platform refuses for good
 * (Discord: the bot may not post in the log channel) is the result's `bankLogRefused`, not a failed run; runs from
 * before the Discord adapter could not get a refusal (the local platform never refuses).
 */
export async function webhookBatch({ batchId, guildId, plan: launched }: WebhookBatchInput): Promise<WebhookBatchResult> {
  // A plan read with the claim saves the plan step (a local activity and its statement) before the first attempts.
  const plan = launched && patched(PLAN_AT_LAUNCH_PATCH) ? launched : await planWebhookBatch(batchId);
  const [outcomes, bankLogRefused] = await Promise.all([
    Promise.all(plan.endpointIds.map((endpointId) => firstAttempts(batchId, guildId, endpointId))),
    plan.bankLogEvents > 0 ? postBankLogsOf(batchId).then(() => undefined, unlessRefused) : undefined,
  ]);
  return {
    succeeded: outcomes.reduce((n, o) => n + o.succeeded, 0),
    retrying: outcomes.reduce((n, o) => n + o.failed.length, 0),
    cancelled: outcomes.reduce((n, o) => n + o.cancelled, 0),
    ...(bankLogRefused && { bankLogRefused }),
  };
}

function postBankLogsOf(batchId: number): Promise<number> {
  if (!patched(BANK_LOG_RESUME_PATCH)) return postBankLogs(batchId);
  return postBankLogs.executeWithOptions({ ...RESUMING_BANK_LOG_POST, summary: `bank log lines of batch ${batchId}` }, [batchId]);
}

function unlessRefused(err: unknown) {
  if (!patched(BANK_LOG_REFUSAL_PATCH)) throw err;
  return refusalCode(err);
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
