import { Context } from '@temporalio/activity';
import { findBankSettings } from '../db/bank/accounts.js';
import { findBatchEvents } from '../db/shared/events.js';
import { postBankLogLine } from '../src/bank/bankLogMessage.js';
import { linesAfter } from '../src/bank/bankLogResume.js';
import type { ActivityDeps } from './deps.js';

export type EventsActivities = ReturnType<typeof createEventsActivities>;

export function createEventsActivities({ db, platform }: ActivityDeps) {
  return {
    /**
     * Posts the bank log line of each bank.transaction event of a batch, in commit order. Each posted line is
     * heartbeated (its event id), so a try after a timeout or an outage starts after the last line the server
     * heard of instead of at the first; a line posted but not yet heard of is posted again as a no-op, since
     * the event id is its post's idempotency key (as in postBankLog).
     */
    async postBankLogs(batchId: number): Promise<number> {
      const events = await findBatchEvents(db, batchId, { type: 'bank.transaction' });
      if (events.length === 0) return 0;
      const settings = await findBankSettings(db, events[0]!.guildId);
      if (!settings.logChannelId) return 0;
      const context = Context.current();
      for (const event of linesAfter(events, context.info.heartbeatDetails)) {
        await postBankLogLine(platform, settings, settings.logChannelId, event);
        context.heartbeat(event.id);
      }
      return events.length;
    },
  };
}
