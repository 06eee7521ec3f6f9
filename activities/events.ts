import { findBankSettings } from '../db/bank/accounts.js';
import { findBatchEvents } from '../db/shared/events.js';
import { postBankLogLine } from '../src/bank/bankLogMessage.js';
import type { ActivityDeps } from './deps.js';

export type EventsActivities = ReturnType<typeof createEventsActivities>;

export function createEventsActivities({ db, platform }: ActivityDeps) {
  return {
    /**
     * Posts the bank log line of each bank.transaction event of a batch, in commit order. A retry after an
     * outage posts each line once: the event id is its post's idempotency key, as in postBankLog.
     */
    async postBankLogs(batchId: number): Promise<number> {
      const events = await findBatchEvents(db, batchId, { type: 'bank.transaction' });
      if (events.length === 0) return 0;
      const settings = await findBankSettings(db, events[0]!.guildId);
      if (!settings.logChannelId) return 0;
      for (const event of events) await postBankLogLine(platform, settings, settings.logChannelId, event);
      return events.length;
    },
  };
}
