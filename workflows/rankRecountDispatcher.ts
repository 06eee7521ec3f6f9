import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { RanksActivities } from '../activities/ranks.js';
import type { DispatcherInput } from '../src/core/temporal/dispatcherProtocol.js';
import { RECOUNT_BATCH_MS, rankRecountWakeSignal, type RankRecountPass } from '../src/ranks/ids.js';
import { LONG_MAINTENANCE_PASS } from './activityProfiles.js';
import { nextPassOf, planSooner, sleepUntilDue } from './dispatcherSleep.js';

const passes = proxyActivities<RanksActivities>(LONG_MAINTENANCE_PASS);

/**
 * `ranks/recount-dispatcher/<taskQueue>`, one long-lived run that recounts the rank snapshots of large servers
 * (docs/performance.md, "Rank recounts at no idle cost"). With no server changed it waits with no timer at all. A
 * change marks its server dirty in PostgreSQL (migration 2026-11-30-090); the start relay then sends `wake` (signal-
 * with-start, src/ranks/recountDispatcher.ts) for a pass a minute later, so a busy minute's changes are recounted
 * together; a wake while a pass is planned moves nothing unless it asks for one sooner (the worker's start asks for
 * one now). A pass that failed for good is tried again a minute later: the marks it did not let go stay in PostgreSQL.
 * Continues as new past 1,000 events (workflows/dispatcherSleep.ts), carrying only when its next pass is due.
 */
export async function rankRecountDispatcher(input: DispatcherInput): Promise<void> {
  const next = nextPassOf(input, rankRecountWakeSignal);
  for (;;) {
    await sleepUntilDue(next);
    // Wakes during the pass stay in `next`: their marks may have come after the pass took the marks.
    next.at = undefined;
    const pass = await passOrFailure();
    if (pass === undefined) planSooner(next, Date.now() + RECOUNT_BATCH_MS);
  }
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
