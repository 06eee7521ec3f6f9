import { WorkflowNotFoundError } from '@temporalio/client';
import { listUnnotifiedCancels, markCancelNotified } from '../../db/giveaways/giveaways.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OperationDeps } from '../core/temporal/operation.js';
import { GIVEAWAY_CANCEL_SIGNAL, giveawayWorkflowId } from './ids.js';

/**
 * One pass of the cancel relay: tells each cancelled giveaway's workflow (signal `cancel`), so it edits the
 * message and finishes instead of sleeping until its end. A cancel commits first (the admin CLI needs no
 * Temporal), so this pass is what reaches the run, within seconds; a run that is gone needs nothing.
 */
export async function relayGiveawayCancels(deps: OperationDeps<Kysely<Database>>, batch = 200): Promise<number> {
  const cancels = await listUnnotifiedCancels(deps.db, batch);
  for (const c of cancels) {
    try {
      await deps.temporal.client.workflow.getHandle(giveawayWorkflowId(c.guildId, c.id)).signal(GIVEAWAY_CANCEL_SIGNAL);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    await markCancelNotified(deps.db, c.guildId, c.id, deps.clock.now());
  }
  return cancels.length;
}
