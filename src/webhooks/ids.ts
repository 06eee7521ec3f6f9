import type { WorkflowRef } from '../core/temporal/workflowRef.js';

// Pure: the workflows import this file, so it holds ids, types and the spec's retry schedule only.

export interface WebhookDeliveryInput {
  deliveryId: number;
  /** 1, or the next number after an operator's retry of a failed delivery. */
  firstAttempt: number;
  /**
   * Set when a batch already made attempt `firstAttempt` and it failed at this time (ms since the epoch,
   * the batch's workflow clock): the run waits out the first delay from that moment, then goes on.
   */
  firstAttemptFailedAt?: number;
}

export type DeliveryStatus = 'succeeded' | 'failed' | 'cancelled';

export const webhookDeliveryWorkflow: WorkflowRef<(input: WebhookDeliveryInput) => Promise<DeliveryStatus>> = {
  name: 'webhookDelivery',
};

export const webhookDeliveryWorkflowId = (endpointId: number, eventId: string) => `webhook/${endpointId}/${eventId}`;

/** The spec's schedule: retries 1 min, 5 min, 30 min, 2 h, 6 h and 24 h after a failure. */
export const RETRY_DELAYS = ['1 minute', '5 minutes', '30 minutes', '2 hours', '6 hours', '24 hours'] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
export const FIRST_RETRY_DELAY_MS = 60_000;

// The batch is the events' fan-out (src/events/batchLaunch.ts starts it); its workflow and activities here take its input.
export type { WebhookBatchInput, WebhookBatchPlan, WebhookBatchResult } from '../events/ids.js';

/** One endpoint's share of a batch: its first attempts that failed, for the retry runs. */
export interface EndpointBatchOutcome {
  succeeded: number;
  cancelled: number;
  failed: Array<{ deliveryId: number; eventId: string; eventType: string; failedAt: number }>;
}
