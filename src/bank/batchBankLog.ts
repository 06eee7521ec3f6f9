import type { Kysely } from 'kysely';
import { findBankSettings } from '../../db/bank/accounts.js';
import type { Database } from '../../db/schema.js';
import { findBatchEvents } from '../../db/shared/events.js';
import type { Platform } from '../core/platform.js';
import { postBankLogLine } from './bankLogMessage.js';
import { linesAfter } from './bankLogResume.js';

/**
 * Posts the bank log line of each bank.transaction event of an event batch, in commit order (the webhook batch
 * runs it beside its deliveries). `lastPosted` is what an earlier try reported through `posted` (the id of its last
 * line), so a try after a timeout or an outage starts after it instead of at the first; a line posted but not yet
 * reported is posted again as a no-op, the event id being its post's idempotency key. Answers the batch's lines.
 */
export async function postBatchBankLog(
  db: Kysely<Database>,
  platform: Platform,
  batchId: number,
  resume: { lastPosted: unknown; posted(eventId: string): void },
): Promise<number> {
  const events = await findBatchEvents(db, batchId, { type: 'bank.transaction' });
  if (events.length === 0) return 0;
  const settings = await findBankSettings(db, events[0]!.guildId);
  if (!settings.logChannelId) return 0;
  for (const event of linesAfter(events, resume.lastPosted)) {
    await postBankLogLine(platform, settings, settings.logChannelId, event);
    resume.posted(event.id);
  }
  return events.length;
}
