import type { TemporalGateway } from '../core/temporal/gateway.js';
import { operationAttributes } from '../core/temporal/searchAttributes.js';
import { startOnce } from '../core/temporal/startOnce.js';

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
export function startEventFanout(temporal: TemporalGateway, event: FanoutTarget): Promise<void> {
  return startOnce(temporal, 'eventFanout', {
    workflowId: fanoutWorkflowId(event.id),
    args: [{ eventId: event.id, type: event.type, guildId: event.guildId }],
    typedSearchAttributes: operationAttributes(event.guildId, 'event.fanout'),
    staticSummary: `Fan out ${event.type} ${event.id} of guild ${event.guildId}`,
  });
}
