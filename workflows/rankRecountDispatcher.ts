import { ActivityFailure, condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { RanksActivities } from '../activities/ranks.js';
import { RECOUNT_BATCH_MS, rankRecountWakeSignal, type RankRecountDispatcherInput, type RankRecountPass } from '../src/ranks/ids.js';
import { LONG_MAINTENANCE_PASS } from './activityProfiles.js';

const passes = proxyActivities<RanksActivities>(LONG_MAINTENANCE_PASS);

/** Events after which the run continues as new (a wake cycle writes about a dozen), well below Temporal's limits. */
const HISTORY_LIMIT = 1_000;

/**
 * `ranks/recount-dispatcher/<taskQueue>`, one long-lived run that recounts the rank snapshots of large servers
 * (docs/performance.md, "Rank recounts at no idle cost"). With no server changed it waits with no timer at all. A
 * change marks its server dirty in PostgreSQL (migration 2026-11-30-090); the start relay then sends `wake` (signal-
 * with-start, src/ranks/recountDispatcher.ts) for a pass a minute later, so a busy minute's changes are recounted
 * together; a wake while a pass is planned moves nothing unless it asks for one sooner (the worker's start asks for
 * one now). A pass that failed for good is tried again a minute later: the marks it did not let go stay in PostgreSQL.
 * Continues as new past HISTORY_LIMIT events, carrying only when its next pass is due.
 */
export async function rankRecountDispatcher(input: RankRecountDispatcherInput): Promise<void> {
  // When the next pass is due, in workflow time; undefined: not before a wake.
  let next = input.nextPassInMs === undefined ? undefined : Date.now() + input.nextPassInMs;
  setHandler(rankRecountWakeSignal, (dueInMs) => {
    const at = Date.now() + Math.max(0, dueInMs);
    if (next === undefined || at < next) next = at;
  });
  for (;;) {
    while (next === undefined || next > Date.now()) {
      if (historyTooLong()) await continueAsNew<typeof rankRecountDispatcher>(next === undefined ? {} : { nextPassInMs: next - Date.now() });
      const planned = next;
      if (planned === undefined) await condition(() => next !== undefined || historyTooLong());
      else await condition(() => next !== planned || historyTooLong(), planned - Date.now());
    }
    // Wakes during the pass stay in `next`: their marks may have come after the pass took the marks.
    next = undefined;
    const pass = await passOrFailure();
    if (pass === undefined) {
      const retryAt = Date.now() + RECOUNT_BATCH_MS;
      if (next === undefined || retryAt < next) next = retryAt;
    }
  }
}

function historyTooLong(): boolean {
  const { continueAsNewSuggested, historyLength } = workflowInfo();
  return continueAsNewSuggested || historyLength > HISTORY_LIMIT;
}

/** The pass, or undefined when it failed for good (its retries spent): the dispatcher must outlive it. */
async function passOrFailure(): Promise<RankRecountPass | undefined> {
  try {
    return await passes.recountDirtyRanks();
  } catch (err) {
    if (err instanceof ActivityFailure) return undefined;
    throw err;
  }
}
