import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Takes one run from the server's quota of `day` (YYYY-MM-DD, UTC) in the caller's transaction: true when it
 * was still below `limit`. The row stays locked until the transaction ends, so concurrent requests never take
 * more than the limit, and a rolled-back request gives its run back.
 */
export async function reserveFlowRun(trx: Kysely<Database>, guildId: string, day: string, limit: number): Promise<boolean> {
  if (limit < 1) return false;
  const row = await trx
    .insertInto('flow_run_quotas')
    .values({ guild_id: guildId, day, used: 1 })
    .onConflict((oc) =>
      oc
        .columns(['guild_id', 'day'])
        .doUpdateSet({ used: sql`flow_run_quotas.used + 1` })
        .where('flow_run_quotas.used', '<', limit),
    )
    .returning('used')
    .executeTakeFirst();
  return row !== undefined;
}
