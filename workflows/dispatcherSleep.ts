import { condition, continueAsNew, setHandler, workflowInfo, type SignalDefinition } from '@temporalio/workflow';

// What the long-lived dispatchers (giveaway ends, rank recounts, the retention purge) share: when the next pass is
// due, moved sooner by their `wake` signal, slept on one durable timer (none while no pass is planned), and a
// continue-as-new past a bounded history that carries only that time.

/** Events after which a dispatcher continues as new (a wake cycle writes about a dozen), well below Temporal's limits. */
const HISTORY_LIMIT = 1_000;

export interface NextPass {
  /** When the next pass is due, in workflow time; undefined: not before a wake. */
  at: number | undefined;
}

/** The next pass, `nextPassInMs` from now (a continue-as-new's carry) or none; `wake` signals move it sooner. */
export function nextPassOf(nextPassInMs: number | undefined, wake: SignalDefinition<[dueInMs: number], 'wake'>): NextPass {
  const next: NextPass = { at: nextPassInMs === undefined ? undefined : Date.now() + nextPassInMs };
  setHandler(wake, (dueInMs) => planSooner(next, Date.now() + Math.max(0, dueInMs)));
  return next;
}

/** Plans a pass at `at` unless one is planned sooner. */
export function planSooner(next: NextPass, at: number): void {
  if (next.at === undefined || at < next.at) next.at = at;
}

/**
 * Sleeps until the next pass is due, woken by a sooner one or a history grown long (wakes for later passes move
 * nothing but add events); past HISTORY_LIMIT events it continues as new through `carry`, with the time left.
 */
export async function sleepUntilDue(next: NextPass, carry: (nextPassInMs: number | undefined) => Promise<never>): Promise<void> {
  while (next.at === undefined || next.at > Date.now()) {
    if (historyTooLong()) await carry(next.at === undefined ? undefined : next.at - Date.now());
    const planned = next.at;
    if (planned === undefined) await condition(() => next.at !== undefined || historyTooLong());
    else await condition(() => next.at !== planned || historyTooLong(), planned - Date.now());
  }
}

/** A dispatcher's continue-as-new input: only when its next pass is due. */
export const carryNext = <I extends { nextPassInMs?: number }>(nextPassInMs: number | undefined) =>
  continueAsNew<(input: I) => Promise<void>>((nextPassInMs === undefined ? {} : { nextPassInMs }) as I);

function historyTooLong(): boolean {
  const { continueAsNewSuggested, historyLength } = workflowInfo();
  return continueAsNewSuggested || historyLength > HISTORY_LIMIT;
}
