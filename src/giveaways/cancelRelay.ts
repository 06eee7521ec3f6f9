import { WorkflowNotFoundError } from '@temporalio/client';
import type { Kysely } from 'kysely';
import { listUnclosedBatchEnds, markCloseNotified, type GiveawayRef } from '../../db/giveaways/batchEnds.js';
import { listUnnotifiedCancels, markCancelNotified } from '../../db/giveaways/giveaways.js';
import type { Database } from '../../db/schema.js';
import type { OperationDeps } from '../core/temporal/operation.js';
import type { SignalDefinition } from '@temporalio/common';
import { giveawayCancelSignal, giveawayCloseSignal, giveawayWorkflowId, REROLL_WINDOW_MS } from './ids.js';

type RelayDeps = OperationDeps<Kysely<Database>>;

/** Signals each giveaway's workflow, then records it told; a run that is gone needs nothing. */
async function signalEach(deps: RelayDeps, giveaways: GiveawayRef[], signal: SignalDefinition<[]>, told: (g: GiveawayRef) => Promise<void>): Promise<number> {
  for (const g of giveaways) {
    try {
      await deps.temporal.client.workflow.getHandle(giveawayWorkflowId(g.guildId, g.giveawayId)).signal(signal);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    await told(g);
  }
  return giveaways.length;
}

/**
 * One pass of the cancel relay: tells each cancelled giveaway's workflow (signal `cancel`), so it edits the
 * message and finishes instead of sleeping until its end. A cancel commits first (the admin CLI needs no
 * Temporal), so this pass is what reaches the run, within seconds.
 */
export async function relayGiveawayCancels(deps: RelayDeps, batch = 200): Promise<number> {
  const cancels = (await listUnnotifiedCancels(deps.db, batch)).map((c) => ({ guildId: c.guildId, giveawayId: c.id }));
  return signalEach(deps, cancels, giveawayCancelSignal, (c) => markCancelNotified(deps.db, c.guildId, c.giveawayId, deps.clock.now()));
}

/**
 * One pass of the close relay: a batch-ended giveaway's workflow waits without a timer (the batch drew it), so
 * once its reroll window passed this tells it (signal `close`) to complete: a workflow task per giveaway, days
 * after the end rather than on its path. A reroll after that starts the workflow again, as after any window.
 */
export async function relayGiveawayCloses(deps: RelayDeps, batch = 200): Promise<number> {
  const closes = await listUnclosedBatchEnds(deps.db, new Date(deps.clock.now().getTime() - REROLL_WINDOW_MS), batch);
  return signalEach(deps, closes, giveawayCloseSignal, (g) => markCloseNotified(deps.db, g, deps.clock.now()));
}
