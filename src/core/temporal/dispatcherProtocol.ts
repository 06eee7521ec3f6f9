import type { SignalDefinition } from '@temporalio/common';

// What a long-lived dispatcher (workflows/dispatcherSleep.ts) is given. Times that cross from the app are counted on
// Temporal's clock (a workflow's `Date.now()`) where the sender can: a time left counted from when the dispatcher's
// task runs is late by however long that task waited behind other workflows' tasks on the queue (92 s with 10,000
// giveaways opening, docs/performance.md).

/**
 * A dispatcher's input, set by its continue-as-new when a pass is planned: `nextPassAt`, when, on Temporal's clock,
 * which the run that carries it and the run that takes it read alike. Runs from before `dispatcher-carry-absolute`
 * carried `nextPassInMs`, which the new run counted from its first task.
 */
export interface DispatcherInput {
  nextPassAt?: number;
  nextPassInMs?: number;
}

/**
 * A pass is wanted in `dueInMs` from when the dispatcher handles the signal (0: now), or at `dueAt` on Temporal's
 * clock when the sender knows it (an activity: activities/temporalClock.ts), whichever is sooner; a pass planned
 * sooner stays.
 */
export type DispatcherWake = SignalDefinition<[dueInMs: number, dueAt?: number], 'wake'>;
