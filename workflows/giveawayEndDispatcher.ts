import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { GiveawaysActivities } from '../activities/giveaways.js';
import type { DispatcherInput } from '../src/core/temporal/dispatcherProtocol.js';
import { giveawayEndsWakeSignal, type EndBatchResult } from '../src/giveaways/ids.js';
import { END_DISPATCH_PASS } from './activityProfiles.js';
import { nextPassOf, planSooner, sleepUntilDue, soonest } from './dispatcherSleep.js';

const passes = proxyActivities<GiveawaysActivities>(END_DISPATCH_PASS);

/** After a pass that left something due and got nowhere (the platform out): the next in 1 s, doubling while none does. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;

/**
 * `giveaways/end-dispatcher/<taskQueue>`, one long-lived run that ends batch-ended giveaways (docs/performance.md,
 * "Giveaway ends at no idle cost"): it sleeps on one durable timer until the earliest end, runs the batch's pass
 * (`endDueGiveaways`: draws what is due, applies the effects, says when the next end comes), and sleeps again; with
 * no giveaway open it waits with no timer at all, so nothing is scheduled while nothing is due. The `wake` signal
 * (signal-with-start, src/giveaways/endDispatcher.ts) comes when a giveaway becomes active and at each worker's
 * start: an end earlier than the timer moves it. Ends stay in PostgreSQL (`ends_at`), so a timer that fires late
 * (Temporal or every worker down) or a run lost ends them late, never not at all. Continues as new past
 * 1,000 events (workflows/dispatcherSleep.ts), carrying only when its next pass is due.
 */
export async function giveawayEndDispatcher(input: DispatcherInput): Promise<void> {
  const next = nextPassOf(input, giveawayEndsWakeSignal);
  let retryMs = 0;
  for (;;) {
    await sleepUntilDue(next);
    // Wakes that come during the pass stay in `next`: their giveaway may have committed after the pass read.
    next.at = undefined;
    const pass = await passOrFailure();
    if (pass === undefined || pass.left) {
      // Left by a pass that got on (ends came due while it ran): again at once. Left by one that did not: back off.
      const progressed = pass !== undefined && (pass.drawn > 0 || (pass.applied ?? 0) > 0);
      retryMs = progressed ? 0 : Math.min(Math.max(retryMs * 2, FIRST_RETRY_MS), MAX_RETRY_MS);
      planSooner(next, Date.now() + retryMs);
    } else {
      retryMs = 0;
      // At the sooner of the next end on Temporal's clock and its time left (all that a pass from before `nextEndAt` sent).
      if (pass.nextEndInMs != null) planSooner(next, soonest(pass.nextEndInMs, pass.nextEndAt ?? undefined));
    }
  }
}

/** The pass, or undefined when it failed for good (a non-retryable failure): the dispatcher must outlive it. */
async function passOrFailure(): Promise<EndBatchResult | undefined> {
  try {
    return await passes.endDueGiveaways();
  } catch (err) {
    if (err instanceof ActivityFailure) return undefined;
    throw err;
  }
}
