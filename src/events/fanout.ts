import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { TemporalGateway } from '../temporal/gateway.js';
import { GUILD_ID, OPERATION } from '../temporal/searchAttributes.js';

export interface FanoutTarget {
  id: string;
  guildId: string;
  type: string;
}

export const fanoutWorkflowId = (eventId: string) => `event/${eventId}`;

/**
 * Starts the fan-out of one event. The workflow id is the event id and a closed run is never re-run, so
 * the api's start right after commit and the relay's later start cannot both deliver.
 */
export async function startEventFanout({ client, taskQueue }: TemporalGateway, event: FanoutTarget): Promise<void> {
  try {
    await client.workflow.start('eventFanout', {
      workflowId: fanoutWorkflowId(event.id),
      taskQueue,
      args: [{ eventId: event.id, type: event.type, guildId: event.guildId }],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [
        { key: GUILD_ID, value: event.guildId },
        { key: OPERATION, value: 'event.fanout' },
      ],
      staticSummary: `Fan out ${event.type} ${event.id} of guild ${event.guildId}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
