import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

// The retention purge's plan (migration 2026-11-30-110): when the dispatcher's next pass is due, and a pass asked
// for sooner that the start relay has yet to send.

/** After a pass: the dispatcher's next one is at `at` (a request made meanwhile stays for the relay). */
export async function planNextPurge(db: Kysely<Database>, at: Date): Promise<void> {
  await db.updateTable('retention_purge_plan').set({ planned_at: at }).execute();
}

/**
 * Asks for a pass by `at` when none is planned that soon; answers whether it asked. In the writing transaction of a
 * plan change, so the request commits with it.
 */
export async function askPurgeBy(db: Kysely<Database>, at: Date): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('retention_purge_plan')
    .set({ wanted_at: sql<Date>`least(wanted_at, ${at})` })
    .where((eb) => eb.or([eb('planned_at', 'is', null), eb('planned_at', '>', at)]))
    .where((eb) => eb.or([eb('wanted_at', 'is', null), eb('wanted_at', '>', at)]))
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

/**
 * Claims the pass asked for and runs `wake` with it before the claim commits: a wake that fails rolls the claim back
 * (the relay's next pass sends it again), and two relays send one request once (the second waits on the row and
 * finds it claimed). Returns whether a wake was sent.
 */
export async function claimPurgeRequest(db: Kysely<Database>, wake: (at: Date) => Promise<void>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('retention_purge_plan')
      .set({ planned_at: sql<Date>`least(planned_at, wanted_at)`, wanted_at: null })
      .where('wanted_at', 'is not', null)
      .returning('planned_at')
      .executeTakeFirst();
    if (!claimed) return false;
    await wake(claimed.planned_at!);
    return true;
  });
}
