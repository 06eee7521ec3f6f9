import { Context } from '@temporalio/activity';
import { findBankSettings } from '../db/bank/accounts.js';
import { findEvent } from '../db/shared/events.js';
import { postBankLogLine } from '../src/bank/bankLogMessage.js';
import { postBatchBankLog } from '../src/bank/batchBankLog.js';
import type { ActivityDeps } from './deps.js';
import { refuse } from './refusal.js';

export type BankActivities = ReturnType<typeof createBankActivities>;

export function createBankActivities({ db, platform }: ActivityDeps) {
  return {
    /** Posts a bank.transaction event in the bank log channel, once: the event id is the post's idempotency key. */
    async postBankLog(eventId: string): Promise<'posted' | 'no-log-channel'> {
      const event = await findEvent(db, eventId);
      if (!event) throw refuse('EVENT_NOT_FOUND', `Event ${eventId} does not exist`);
      const settings = await findBankSettings(db, event.guildId);
      if (!settings.logChannelId) return 'no-log-channel';
      await postBankLogLine(platform, settings, settings.logChannelId, event);
      return 'posted';
    },

    /**
     * The bank log lines of an event batch (workflow webhookBatch): postBatchBankLog, each posted line heartbeated
     * (its event id), so a later try resumes after the last line the server heard of.
     */
    async postBankLogs(batchId: number): Promise<number> {
      const context = Context.current();
      return postBatchBankLog(db, platform, batchId, { lastPosted: context.info.heartbeatDetails, posted: (eventId) => context.heartbeat(eventId) });
    },
  };
}
