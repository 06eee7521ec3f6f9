import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Claims the effect of one node of one run in the caller's transaction: undefined when this is the first
 * time (the caller applies it, then stores its result), else the result stored the first time.
 */
export async function claimFlowEffect(trx: Kysely<Database>, executionId: number, nodeId: string): Promise<unknown> {
  const inserted = await trx
    .insertInto('flow_effects')
    .values({ execution_id: executionId, node_id: nodeId, result: 'null' })
    .onConflict((oc) => oc.columns(['execution_id', 'node_id']).doNothing())
    .returning('node_id')
    .executeTakeFirst();
  if (inserted) return undefined;
  const row = await trx
    .selectFrom('flow_effects')
    .select('result')
    .where('execution_id', '=', executionId)
    .where('node_id', '=', nodeId)
    .executeTakeFirstOrThrow();
  return row.result;
}

export async function storeFlowEffect(trx: Kysely<Database>, executionId: number, nodeId: string, result: unknown): Promise<void> {
  await trx
    .updateTable('flow_effects')
    .set({ result: JSON.stringify(result) })
    .where('execution_id', '=', executionId)
    .where('node_id', '=', nodeId)
    .execute();
}
