import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { KeysActivities } from '../activities/keys.js';
import type { DispatcherInput } from '../src/core/temporal/dispatcherProtocol.js';
import { PURGE_SLACK_MS, retentionPurgeWakeSignal, type RetentionPurgePass } from '../src/keys/ids.js';
import { RETENTION_PASS } from './activityProfiles.js';
import { nextPassOf, planSooner, sleepUntilDue } from './dispatcherSleep.js';

const { purgeDueRecords } = proxyActivities<KeysActivities>(RETENTION_PASS);

/**
 * `maintenance/purge-dispatcher/<taskQueue>`, one long-lived run that purges the records past their retention
 * (docs/retention.md, "When the purge runs"), in place of the hourly schedule. It sleeps on one durable timer until
 * the pass its last pass planned (`purgeDueRecords`: the purge, in the same batches within the same budget, then the
 * first stored record's due time plus an hour, at most the shortest plan retention away), runs it, and sleeps again.
 * The `wake` signal (signal-with-start, src/keys/purgeDispatcher.ts) comes at each worker's start (a pass now), after
 * a server's plan changed (now), and when the start relay sees a record written since that comes due sooner; a wake
 * for later than the timer moves nothing. The records stay in PostgreSQL, so a timer late or a run lost purges late,
 * never not at all. A pass that failed for good is tried again an hour later. Continues as new past 1,000 events
 * (workflows/dispatcherSleep.ts), carrying only when its next pass is due.
 */
export async function retentionPurgeDispatcher(input: DispatcherInput): Promise<void> {
  const next = nextPassOf(input, retentionPurgeWakeSignal);
  for (;;) {
    await sleepUntilDue(next);
    // Wakes during the pass stay in `next`: their request may have come after the pass read the records.
    next.at = undefined;
    const pass = await passOrFailure();
    planSooner(next, Date.now() + (pass === undefined ? PURGE_SLACK_MS : pass.nextPassInMs));
  }
}

/** The pass, or undefined when it failed for good (its retries spent): the dispatcher must outlive it. */
async function passOrFailure(): Promise<RetentionPurgePass | undefined> {
  try {
    return await purgeDueRecords();
  } catch (err) {
    if (err instanceof ActivityFailure) return undefined;
    throw err;
  }
}
