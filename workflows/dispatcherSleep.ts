import { condition, continueAsNew, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import type { DispatcherInput, DispatcherWake } from '../src/core/temporal/dispatcherProtocol.js';

// What the long-lived dispatchers (giveaway ends, rank recounts, the retention purge) share: when the next pass is
// due, moved sooner by their `wake` signal, slept on one durable timer (none while no pass is planned), and a
// continue-as-new past a bounded history that carries only that time, on Temporal's clock
// (src/core/temporal/dispatcherProtocol.ts).

/** Events after which a dispatcher continues as new (a wake cycle writes about a dozen), well below Temporal's limits. */
const HISTORY_LIMIT = 1_000;

export interface NextPass {
  /** When the next pass is due, in workflow time; undefined: not before a wake. */
  at: number | undefined;
}

/** The next pass a continue-as-new carried (at `nextPassAt`, or `nextPassInMs` from now) or none; `wake` signals move it sooner. */
export function nextPassOf({ nextPassAt, nextPassInMs }: DispatcherInput, wake: DispatcherWake): NextPass {
  const next: NextPass = { at: nextPassAt ?? (nextPassInMs === undefined ? undefined : Date.now() + nextPassInMs) };
  setHandler(wake, (dueInMs, dueAt) => planSooner(next, soonest(dueInMs, dueAt)));
  return next;
}

/**
 * The sooner of a time left, counted from now (this task's time, late by however long the task waited), and a time on
 * Temporal's clock, which the wait does not move (undefined: none).
 */
export const soonest = (inMs: number, at: number | undefined) => Math.min(Date.now() + Math.max(0, inMs), at ?? Infinity);

/** Plans a pass at `at` unless one is planned sooner. */
export function planSooner(next: NextPass, at: number): void {
  if (next.at === undefined || at < next.at) next.at = at;
}

/**
 * Sleeps until the next pass is due, woken by a sooner one or a history grown long (wakes for later passes move
 * nothing but add events); past HISTORY_LIMIT events it continues as new, carrying when the next pass is due.
 */
export async function sleepUntilDue(next: NextPass): Promise<void> {
  while (next.at === undefined || next.at > Date.now()) {
    if (historyTooLong()) await carryNext(next.at);
    const planned = next.at;
    if (planned === undefined) await condition(() => next.at !== undefined || historyTooLong());
    else await condition(() => next.at !== planned || historyTooLong(), planned - Date.now());
  }
}

/** Continues as new, carrying only when the next pass is due (none: until woken). */
function carryNext(at: number | undefined): Promise<never> {
  const input: DispatcherInput =
    at === undefined ? {} : patched('dispatcher-carry-absolute') ? { nextPassAt: at } : { nextPassInMs: at - Date.now() };
  return continueAsNew<(input: DispatcherInput) => Promise<void>>(input);
}

function historyTooLong(): boolean {
  const { continueAsNewSuggested, historyLength } = workflowInfo();
  return continueAsNewSuggested || historyLength > HISTORY_LIMIT;
}
