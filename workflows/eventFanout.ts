import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

export interface EventFanoutInput {
  eventId: string;
  type: string;
  guildId: string;
}

const { postBankLog } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  // A platform outage is retried for a day; the post itself is idempotent by event id.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
  scheduleToCloseTimeout: '1 day',
});

/** Everything one event sets off: the bank log line now, webhook deliveries with the webhooks feature. */
export async function eventFanout(input: EventFanoutInput): Promise<void> {
  if (input.type === 'bank.transaction') await postBankLog(input.eventId);
}
