import type { RefusalCode } from '../core/errorCodes.js';
import type { WorkflowRef } from '../core/temporal/workflowRef.js';

// Pure: the workflows import this file, so it holds ids and types only.

export interface EventFanoutInput {
  eventId: string;
  type: string;
  guildId: string;
}

/**
 * Workflow `event/<eventId>`, started for each event before batches (issue 16): the worker keeps running it
 * for the fan-outs started then; new events go in batches (src/events/batchLaunch.ts).
 */
export const eventFanoutWorkflow: WorkflowRef<(input: EventFanoutInput) => Promise<void>> = { name: 'eventFanout' };

/**
 * A batch of committed events of one guild, the fan-out of every event since issue 16: the first attempt of each
 * webhook delivery and the bank log lines. Started by the events' batch launcher; the workflow (type `webhookBatch`,
 * run by the webhooks area) and its activities take this input.
 */
export interface WebhookBatchInput {
  batchId: number;
  guildId: string;
  /**
   * The batch's plan when the launcher read it with its claim (patch `webhook-batch-plan-at-launch`): the run goes
   * straight to the first attempts. Without it (the relay, runs from before) the run's plan step reads it.
   */
  plan?: WebhookBatchPlan;
}

/** What a batch has to do: the endpoints its deliveries go to, and how many bank log lines it posts. */
export interface WebhookBatchPlan {
  endpointIds: number[];
  bankLogEvents: number;
}

export interface WebhookBatchResult {
  succeeded: number;
  /** First attempts that failed: each went on in its own `webhook/<endpoint>/<event>` run. */
  retrying: number;
  cancelled: number;
  /** The code of a bank log post the platform refused for good (its lines are not posted); absent when posted or none. */
  bankLogRefused?: RefusalCode;
}

export const webhookBatchWorkflow: WorkflowRef<(input: WebhookBatchInput) => Promise<WebhookBatchResult>> = { name: 'webhookBatch' };

/** With the guild: batch numbers come from one database's sequence, and other databases may share the namespace. */
export const webhookBatchWorkflowId = (guildId: string, batchId: number) => `webhook-batch/${guildId}/${batchId}`;

