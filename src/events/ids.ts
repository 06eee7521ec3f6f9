import type { WorkflowRef } from '../core/temporal/workflowRef.js';

// Pure: the workflows import this file, so it holds ids and types only.

export interface EventFanoutInput {
  eventId: string;
  type: string;
  guildId: string;
}

export const eventFanoutWorkflow: WorkflowRef<(input: EventFanoutInput) => Promise<void>> = { name: 'eventFanout' };

export const fanoutWorkflowId = (eventId: string) => `event/${eventId}`;
