import { ActivityFailure, condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { KeysActivities } from '../activities/keys.js';
import { PURGE_SLACK_MS, retentionPurgeWakeSignal, type RetentionPurgeDispatcherInput, type RetentionPurgePass } from '../src/keys/ids.js';
import { RETENTION_PASS } from './activityProfiles.js';

const { purgeDueRecords } = proxyActivities<KeysActivities>(RETENTION_PASS);

/** Events after which the run continues as new (a pass writes about a dozen), well below Temporal's limits. */
const HISTORY_LIMIT = 1_000;

/**
 * `maintenance/purge-dispatcher/<taskQueue>`, one long-lived run that purges the records past their retention
 * (docs/retention.md, "When the purge runs"), in place of the hourly schedule. It sleeps on one durable timer until
 * the pass its last pass planned (`purgeDueRecords`: the purge, in the same batches within the same budget, then the
 * first stored record's due time plus an hour, at most the shortest plan retention away), runs it, and sleeps again.
 * The `wake` signal (signal-with-start, src/keys/purgeDispatcher.ts) comes at each worker's start (a pass now), after
 * a server's plan changed (now), and when the start relay sees a record written since that comes due sooner; a wake
 * for later than the timer moves nothing. The records stay in PostgreSQL, so a timer late or a run lost purges late,
 * never not at all. A pass that failed for good is tried again an hour later. Continues as new past HISTORY_LIMIT
 * events, carrying only when its next pass is due.
 */
export async function retentionPurgeDispatcher(input: RetentionPurgeDispatcherInput): Promise<void> {
  // When the next pass is due, in workflow time; undefined: not before a wake.
  let next = input.nextPassInMs === undefined ? undefined : Date.now() + input.nextPassInMs;
  setHandler(retentionPurgeWakeSignal, (dueInMs) => {
    const at = Date.now() + Math.max(0, dueInMs);
    if (next === undefined || at < next) next = at;
  });
  for (;;) {
    while (next === undefined || next > Date.now()) {
      if (historyTooLong()) await continueAsNew<typeof retentionPurgeDispatcher>(next === undefined ? {} : { nextPassInMs: next - Date.now() });
      const planned = next;
      if (planned === undefined) await condition(() => next !== undefined || historyTooLong());
      else await condition(() => next !== planned || historyTooLong(), planned - Date.now());
    }
    // Wakes during the pass stay in `next`: their request may have come after the pass read the records.
    next = undefined;
    const pass = await passOrFailure();
    const at = Date.now() + (pass === undefined ? PURGE_SLACK_MS : pass.nextPassInMs);
    if (next === undefined || at < next) next = at;
  }
}

function historyTooLong(): boolean {
  const { continueAsNewSuggested, historyLength } = workflowInfo();
  return continueAsNewSuggested || historyLength > HISTORY_LIMIT;
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
