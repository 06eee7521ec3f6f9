import type { Kysely } from 'kysely';
import { insertAppeal, type AppealAnswer } from '../../db/appeals/appeals.js';
import { recordEvent } from '../events/outbox.js';
import { nextRecordNumber } from '../../db/shared/recordCounters.js';
import type { Database } from '../../db/schema.js';
import type { OutboxEvent } from '../events/eventTypes.js';

/**
 * Files a ban appeal with its `appeals.submitted` event in the caller's transaction, without rules: the bot's
 * appeal form (and `npm run admin -- simulate appeal-file`) goes through submitAppeal.ts, which checks them
 * first; the demo guild and tests file here directly.
 */
export async function fileAppeal(
  trx: Kysely<Database>,
  a: { guildId: string; userId: string; userTag: string | null; banCaseNumber: number | null; banReason: string | null; answers: AppealAnswer[]; at: Date },
): Promise<{ number: number; event: OutboxEvent }> {
  const number = await nextRecordNumber(trx, a.guildId, 'appeal');
  await insertAppeal(trx, { ...a, number, createdAt: a.at });
  const event = await recordEvent(trx, {
    type: 'appeals.submitted',
    guildId: a.guildId,
    createdAt: a.at,
    data: { appealNumber: number, userId: a.userId, banCaseNumber: a.banCaseNumber, answers: a.answers, createdAt: a.at.toISOString() },
  });
  return { number, event };
}
