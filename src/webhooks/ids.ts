import type { WorkflowRef } from '../core/temporal/workflowRef.js';

// Pure: the workflows import this file, so it holds ids, types and the spec's retry schedule only.

export interface WebhookDeliveryInput {
  deliveryId: number;
  /** 1, or the next number after an operator's retry of a failed delivery. */
  firstAttempt: number;
}

export type DeliveryStatus = 'succeeded' | 'failed' | 'cancelled';

export const webhookDeliveryWorkflow: WorkflowRef<(input: WebhookDeliveryInput) => Promise<DeliveryStatus>> = {
  name: 'webhookDelivery',
};

export const webhookDeliveryWorkflowId = (endpointId: number, eventId: string) => `webhook/${endpointId}/${eventId}`;

/** The spec's schedule: retries 1 min, 5 min, 30 min, 2 h, 6 h and 24 h after a failure. */
export const RETRY_DELAYS = ['1 minute', '5 minutes', '30 minutes', '2 hours', '6 hours', '24 hours'] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
