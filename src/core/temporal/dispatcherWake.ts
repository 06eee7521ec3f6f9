import type { DispatcherWake } from './dispatcherProtocol.js';
import type { TemporalGateway } from './gateway.js';
import { OPERATION } from './searchAttributes.js';
import type { WorkflowRef } from './workflowRef.js';

/** A long-lived dispatcher (one run per task queue) that sleeps until its next pass and takes a `wake` signal. */
export interface Dispatcher {
  workflow: WorkflowRef<(input: Record<string, never>) => Promise<void>>;
  workflowId: (taskQueue: string) => string;
  wake: DispatcherWake;
  operation: string;
  summary: string;
}

/**
 * Wakes of one dispatcher leave one process at most this often. A wake per activation sent one signal each: 10,000
 * giveaways opened in a few minutes signalled faster than the dispatcher's run could continue as new (a run cannot
 * end while signals it has not seen wait), until Temporal refused its 10,000th signal.
 */
const WAKE_SPACING_MS = 200;

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/** When a pass is wanted: in `inMs` from when the dispatcher handles it, or at `at` on Temporal's clock, whichever is sooner. */
export interface Due {
  inMs: number;
  at?: number;
}

/**
 * One dispatcher's wakes from this process: the first leaves at once; those asked while a signal is in flight or
 * within WAKE_SPACING_MS of the last leave together as one signal with the soonest due among them (a time left is
 * counted from when it leaves: a pass comes that much late at most, never early), and each caller's promise settles
 * with that signal.
 */
class WakeSender {
  private waiting: { due: Due; waiters: Waiter[] } | undefined;
  private sending = false;
  private spacing: NodeJS.Timeout | undefined;
  private lastSentAt = -Infinity;

  constructor(private readonly send: (due: Due) => Promise<void>) {}

  wake(due: Due): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const batch = this.waiting ?? { due: { inMs: Infinity }, waiters: [] };
      batch.due = soonest(batch.due, { inMs: Math.max(0, Math.round(due.inMs)), at: due.at === undefined ? undefined : Math.round(due.at) });
      batch.waiters.push({ resolve, reject });
      this.waiting = batch;
      this.sendWhenFree();
    });
  }

  private sendWhenFree(): void {
    if (this.sending || this.spacing || !this.waiting) return;
    const waitMs = this.lastSentAt + WAKE_SPACING_MS - performance.now();
    if (waitMs > 0) {
      this.spacing = setTimeout(() => {
        this.spacing = undefined;
        this.sendWhenFree();
      }, waitMs);
      return;
    }
    const { due, waiters } = this.waiting;
    this.waiting = undefined;
    this.sending = true;
    this.lastSentAt = performance.now();
    this.send(due)
      .then(
        () => waiters.forEach((w) => w.resolve()),
        (err: unknown) => waiters.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        this.sending = false;
        this.sendWhenFree();
      });
  }
}

/** The sooner of two dues, each of its two times apart. */
function soonest(a: Due, b: Due): Due {
  const inMs = Math.min(a.inMs, b.inMs);
  const at = a.at === undefined ? b.at : b.at === undefined ? a.at : Math.min(a.at, b.at);
  return at === undefined ? { inMs } : { inMs, at };
}

// One sender per Temporal client and dispatcher workflow id, so every caller in a process shares its spacing (and tests,
// each with their own client or task queue, their own).
const senders = new WeakMap<object, Map<string, WakeSender>>();

/**
 * Tells a dispatcher to run a pass when `due` (`{ inMs: 0 }`: now), starting it if it is not running (signal-with-start:
 * one action, started or not); a pass planned sooner stays. Wakes close together are sent as one (WakeSender). A
 * failure to send fails the caller, which is retried.
 */
export function wakeDispatcher(gateway: TemporalGateway, dispatcher: Dispatcher, due: Due): Promise<void> {
  const { client, taskQueue } = gateway;
  const workflowId = dispatcher.workflowId(taskQueue);
  const byId = senders.get(client) ?? new Map<string, WakeSender>();
  senders.set(client, byId);
  let sender = byId.get(workflowId);
  if (!sender) {
    sender = new WakeSender(async ({ inMs, at }) => {
      await client.workflow.signalWithStart(dispatcher.workflow.name, {
        workflowId,
        taskQueue,
        args: [{}],
        signal: dispatcher.wake,
        signalArgs: at === undefined ? [inMs] : [inMs, at],
        typedSearchAttributes: [{ key: OPERATION, value: dispatcher.operation }],
        staticSummary: dispatcher.summary,
      });
    });
    byId.set(workflowId, sender);
  }
  return sender.wake(due);
}
