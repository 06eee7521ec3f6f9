import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { insertXpChange, type XpChangeRecord } from '../../db/levels/xpChanges.js';

export type XpChangeRequest = Pick<XpChangeRecord, 'guildId' | 'userId' | 'asker' | 'type' | 'unit' | 'amount' | 'reason' | 'createdAt'>;

const newChangeId = () => `xpc_${randomBytes(12).toString('base64url')}`;

/** Accepts an XP change as `pending` in the caller's transaction; its workflow applies it (xpChangeOperation). */
export async function requestXpChange(trx: Kysely<Database>, request: XpChangeRequest): Promise<XpChangeRecord> {
  const record: XpChangeRecord = { ...request, changeId: newChangeId(), status: 'pending', result: null, error: null, processedAt: null };
  await insertXpChange(trx, record);
  return record;
}
