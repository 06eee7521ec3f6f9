import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * The next case or appeal number of a server. The counter row is locked until the caller's transaction
 * ends, so numbers never repeat and a rolled-back transaction leaves no gap.
 */
export async function nextRecordNumber(trx: Kysely<Database>, guildId: string, kind: 'case' | 'appeal'): Promise<number> {
  const row = await trx
    .insertInto('record_counters')
    .values({ guild_id: guildId, kind, last_number: 1 })
    .onConflict((oc) => oc.columns(['guild_id', 'kind']).doUpdateSet((eb) => ({ last_number: eb('record_counters.last_number', '+', 1) })))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return row.last_number;
}
