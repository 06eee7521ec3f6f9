/**
 * A long-lived dispatcher's input (workflows/dispatcherSleep.ts), set by its continue-as-new when a pass is planned:
 * `nextPassAt`, when, on Temporal's clock (a workflow's `Date.now()`), which the run that carries it and the run that
 * takes it read alike. Runs from before `dispatcher-carry-absolute` carried `nextPassInMs` instead, which the new run
 * counted from its first workflow task: a task that waits behind other workflows' tasks on the queue made the pass
 * that much late (92 s with 10,000 giveaways opening, docs/performance.md).
 */
export interface DispatcherInput {
  nextPassAt?: number;
  nextPassInMs?: number;
}
