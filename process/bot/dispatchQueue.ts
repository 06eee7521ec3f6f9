import { createDispatchBound } from './dispatchBound.js';
import { createRunRetrier, type RunRetryOptions } from './dispatchRetry.js';
import type { DispatchOutcome, QueuedDispatch } from './queuedDispatch.js';

export interface DispatchQueueOptions extends RunRetryOptions {
  /** How many dispatches of type `t` may be handled together (1: one at a time). */
  batchSize(t: string): number;
  /** Most dispatches held; from this many on, `onPressure(true)` asks the gateway side to stop reading. */
  maxQueued: number;
  /** Servers handled at the same time (each in its own order); about the database pool's size. */
  concurrency: number;
  /** Urgent lanes (interactions) handled at the same time, beside `concurrency` (default 2). */
  urgentConcurrency?: number;
  onPressure(paused: boolean): void;
  /** Each dispatch once it is done with: handled, or given up for a failure that is not an outage. */
  onDone(item: QueuedDispatch, outcome: DispatchOutcome): void;
}

export interface DispatchQueue {
  push(item: QueuedDispatch): void;
  /** Dispatches held (waiting or being handled), unbounded ones included. */
  readonly size: number;
  /** Resolves once every dispatch pushed so far is done with. */
  drained(): Promise<void>;
  /**
   * Lets the handlings in progress end and starts no other; a retry waiting on an outage gives up, and what is
   * left stays unhandled. Resolves when nothing runs any more.
   */
  stop(): Promise<void>;
}

/**
 * The bot's dispatch queue. Per server, dispatches are handled one after the other in gateway order (a join
 * before the leave that follows it); servers proceed side by side. A run that fails on an outage holds its server's
 * later dispatches back while it is retried (dispatchRetry.ts); the queue is bounded (dispatchBound.ts). Urgent
 * lanes (interactions) wait only for each other, never behind servers' backlogs; unbounded items (the bot's own
 * paced work) keep their server's order but do not count toward the bound.
 */
export function createDispatchQueue(o: DispatchQueueOptions): DispatchQueue {
  const retrier = createRunRetrier(o);
  const bound = createDispatchBound(o.maxQueued, (paused) => o.onPressure(paused));
  const lanes = new Map<string, QueuedDispatch[]>();
  const ready: string[] = [];
  const urgentReady: string[] = [];
  const running = new Set<Promise<void>>();
  let urgentRunning = 0;
  let closed = false;

  function push(item: QueuedDispatch) {
    const lane = lanes.get(item.lane);
    if (lane) lane.push(item);
    else {
      lanes.set(item.lane, [item]);
      (item.urgent ? urgentReady : ready).push(item.lane);
    }
    bound.held(item);
    pump();
  }

  function pump() {
    while (!closed && urgentRunning < (o.urgentConcurrency ?? 2) && urgentReady.length > 0) {
      urgentRunning += 1;
      start(urgentReady.shift()!, () => (urgentRunning -= 1));
    }
    while (!closed && running.size - urgentRunning < o.concurrency && ready.length > 0) start(ready.shift()!, () => undefined);
  }

  function start(key: string, release: () => void) {
    const lane = runLane(key).finally(() => {
      running.delete(lane);
      release();
      pump();
    });
    running.add(lane);
  }

  async function runLane(key: string) {
    const lane = lanes.get(key)!;
    while (lane.length > 0 && !closed) {
      const run = takeRun(lane);
      const outcomes = await retrier.handleRun(run).catch(() => null);
      if (!outcomes) break;
      lane.splice(0, run.length);
      run.forEach((item, i) => bound.released(item, () => o.onDone(item, outcomes[i]!)));
    }
    lanes.delete(key);
  }

  function takeRun(lane: QueuedDispatch[]): QueuedDispatch[] {
    const limit = Math.max(1, o.batchSize(lane[0]!.t));
    let n = 1;
    while (n < limit && n < lane.length && lane[n]!.t === lane[0]!.t) n += 1;
    return lane.slice(0, n);
  }

  return {
    push,
    get size() {
      return bound.size;
    },
    drained: () => bound.drained(),
    async stop() {
      closed = true;
      retrier.stop();
      await Promise.all([...running]);
    },
  };
}
