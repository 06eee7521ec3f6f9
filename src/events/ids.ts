import type { WorkflowRef } from '../core/temporal/workflowRef.js';

// Pure: the workflows import this file, so it holds ids and types only.

export interface EventFanoutInput {
  eventId: string;
  type: string;
  guildId: string;
}

/**
 * Workflow `event/<eventId>`, started for each event before batches (issue 16): the worker keeps running it
 * for the fan-outs started then; new events go in batches (src/webhooks/batchLaunch.ts).
 */
export const eventFanoutWorkflow: WorkflowRef<(input: EventFanoutInput) => Promise<void>> = { name: 'eventFanout' };
