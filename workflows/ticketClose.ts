import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { TicketsActivities } from '../activities/tickets.js';
import type { FailedTicketCloseAction, TicketCloseInput } from '../src/tickets/ids.js';
import { BOUNDED_PLATFORM_EFFECT, DATABASE_STEP } from './activityProfiles.js';
import { failureCollector } from './effectFailures.js';

const steps = proxyLocalActivities<TicketsActivities>(DATABASE_STEP);
// The close already stands (transcript and event included): an effect that keeps failing is recorded, the others still run.
const effects = proxyActivities<TicketsActivities>(BOUNDED_PLATFORM_EFFECT);

/**
 * Applies an API close on the platform as a staff close would: the log line, the DM to the opener, then the
 * ticket channel deleted or its thread archived. Each effect runs whatever the others did.
 */
export async function ticketClose({ guildId, ticketNo }: TicketCloseInput): Promise<{ failedActions: FailedTicketCloseAction[] }> {
  const { failed: failedActions, attempt } = failureCollector<FailedTicketCloseAction['type']>();
  await attempt('log', () => effects.postTicketCloseLog(guildId, ticketNo));
  await attempt('dm', () => effects.notifyTicketOpener(guildId, ticketNo));
  await attempt('channel', () => effects.closeTicketChannel(guildId, ticketNo));
  await steps.finishTicketClose(guildId, ticketNo, failedActions);
  return { failedActions };
}

