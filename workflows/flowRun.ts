import { CancellationScope, isCancellation, patched, proxyLocalActivities, sleep, upsertMemo } from '@temporalio/workflow';
import type { FlowsActivities } from '../activities/flows.js';
import { FLOW_RUN_STATUS_MEMO, type FlowNodeOutcome, type FlowRunInput, type FlowRunOutcome } from '../src/flows/ids.js';
import { BOOKKEEPING_STEP } from './activityProfiles.js';
import { TimeBudget } from './flows/timeBudget.js';
import { walkFlow, type WalkEnd } from './flows/walk.js';

const bookkeeping = proxyLocalActivities<FlowsActivities>(BOOKKEEPING_STEP);

type Ending = WalkEnd | { status: 'stopped' | 'cancelled'; error: string };

/**
 * The patch under which a run outlasts outages: its effects retry an outage without end, and its timeout counts
 * only the flow's own time (workflows/flows/timeBudget.ts) instead of a timer around the whole walk.
 */
export const FLOW_RUN_OUTLASTS_OUTAGES = 'flow-run-outlasts-outages';

const CANCELLED: Ending = { status: 'cancelled', error: 'cancelled by an operator' };

/**
 * One run of a flow (`flow-run/<guild>/<executionId>`): walks the definition snapshotted in its input within
 * the flow's own timeout (then `stopped`); an operator's cancel ends it `cancelled`. The end is recorded in the
 * run's durable record and returned, with each node's outcome (no new command: the same bookkeeping step carries it).
 */
export async function flowRun(input: FlowRunInput): Promise<FlowRunOutcome> {
  const trace: FlowNodeOutcome[] = [];
  const ending = patched(FLOW_RUN_OUTLASTS_OUTAGES) ? await walkWithinBudget(input, trace) : await walkUnderTimer(input, trace);
  const finishedMs = Date.now();
  const outcome: FlowRunOutcome = {
    status: ending.status,
    output: ending.status === 'success' ? ending.output : null,
    error: ending.status === 'success' ? null : ending.error,
    finishedAt: new Date(finishedMs).toISOString(),
    durationMs: Math.max(0, finishedMs - Date.parse(input.startedAt)),
  };
  // Recorded even when the run was cancelled: the record must say how it ended.
  await CancellationScope.nonCancellable(() => bookkeeping.finishFlowRun(input.executionId, outcome, trace));
  upsertMemo({ [FLOW_RUN_STATUS_MEMO]: outcome.status });
  return outcome;
}

async function walkWithinBudget(input: FlowRunInput, trace: FlowNodeOutcome[]): Promise<Ending> {
  try {
    return await walkFlow(input, new TimeBudget(input.timeoutSeconds), trace);
  } catch (err) {
    if (!isCancellation(err)) throw err;
    return CANCELLED;
  }
}

/** Runs started before the patch: the flow's timeout is a timer that cancels the walk wherever it is. */
async function walkUnderTimer(input: FlowRunInput, trace: FlowNodeOutcome[]): Promise<Ending> {
  let timedOut = false;
  const walkScope = new CancellationScope();
  const timerScope = new CancellationScope();
  const timer = timerScope
    .run(() => sleep(input.timeoutSeconds * 1000))
    .then(() => {
      timedOut = true;
      walkScope.cancel();
    })
    .catch(() => undefined);
  let ending: Ending;
  try {
    ending = await walkScope.run(() => walkFlow(input, undefined, trace));
  } catch (err) {
    if (!isCancellation(err)) throw err;
    ending = timedOut ? { status: 'stopped', error: `the flow's timeout of ${input.timeoutSeconds} s passed` } : CANCELLED;
  }
  timerScope.cancel();
  await timer;
  return ending;
}
