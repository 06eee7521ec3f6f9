import { findBankSettings } from '../db/bank/accounts.js';
import { findEvent } from '../db/shared/events.js';
import { postBankLogLine } from '../src/bank/bankLogMessage.js';
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
  };
}
