import { isDependencyUnavailable } from '../../src/core/dependencyErrors.js';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import type { SessionProgress } from './gatewayPositions.js';

/** One gateway dispatch waiting for its handling. */
export interface QueuedDispatch {
  t: string;
  s: number;
  d: unknown;
  shardId: number;
  /** The lane that keeps its order: its server's id (dispatchLane.ts), '' for events of none. */
  lane: string;
  /** When the bot received it (performance.now()), for the dispatch-to-commit latency. */
  receivedAt: number;
  /** Its gateway session's progress (gatewayPositions.ts), told when it is done with; none in the queue's own tests. */
  progress?: SessionProgress | null;
  /**
   * Handled ahead of every server's backlog, in slots of its own (`urgentConcurrency`): an interaction, whose answer
   * Discord wants within 3 s of the press.
   */
  urgent?: boolean;
  /**
   * Not counted toward `maxQueued`: work the bot makes itself (a member reconciliation), paced by its maker, that
   * must not stop the gateway from being read (heartbeat ACKs go unread on a paused socket).
   */
  unbounded?: boolean;
}

export interface DispatchQueueOptions {
  /**
   * Handles dispatches of one type and one server, in gateway order. It gets one dispatch, or several in a row
   * when `batchSize` allows it for their type (all applied, or none: it must be one transaction).
   */
  handle(run: QueuedDispatch[]): Promise<void>;
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
  onDone(item: QueuedDispatch, outcome: 'handled' | 'failed'): void;
  onFailure(item: QueuedDispatch, err: unknown): void;
  onRetry(run: QueuedDispatch[], err: unknown, delayMs: number): void;
  backoff?: { initialMs: number; maxMs: number };
  wait?: (ms: number) => Promise<void>;
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

const DEFAULT_BACKOFF = { initialMs: 100, maxMs: 5_000 };

/**
 * The bot's dispatch queue. Per server, dispatches are handled one after the other in gateway order (a join
 * before the leave that follows it); servers proceed side by side. A handling that fails on an outage (the
 * database down: src/core/dependencyErrors.ts) is retried with exponential backoff until it passes, holding its
 * server's later dispatches back; any other failure is reported and passed over, as retrying cannot cure it. The
 * queue is bounded: at `maxQueued` it asks the gateway side to stop reading (back-pressure), and to go on once
 * half of it is done, so an outage costs waiting, not memory. Urgent lanes (interactions) wait only for each other,
 * never behind servers' backlogs; unbounded items (the bot's own paced work) keep their server's order but do not
 * count toward the bound.
 */
export function createDispatchQueue(o: DispatchQueueOptions): DispatchQueue {
  const backoff = o.backoff ?? DEFAULT_BACKOFF;
  const wait = o.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  const lanes = new Map<string, QueuedDispatch[]>();
  const ready: string[] = [];
  const urgentReady: string[] = [];
  let size = 0;
  /** Items counted toward the bound. */
  let bounded = 0;
  const running = new Set<Promise<void>>();
  let urgentRunning = 0;
  let paused = false;
  let closed = false;
  let idle: Array<() => void> = [];
  const wakeRetries = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        wakeRetries.delete(wake);
        resolve();
      };
      wakeRetries.add(wake);
      void wait(ms).then(wake);
    });

  function push(item: QueuedDispatch) {
    size += 1;
    if (!item.unbounded) bounded += 1;
    const lane = lanes.get(item.lane);
    if (lane) lane.push(item);
    else {
      lanes.set(item.lane, [item]);
      (item.urgent ? urgentReady : ready).push(item.lane);
    }
    // Again at each dispatch past the bound: a connection opened since (a resume) starts unpaused.
    if (!item.unbounded && bounded >= o.maxQueued) {
      paused = true;
      o.onPressure(true);
    }
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
      const outcomes = await handleRun(run).catch(() => null);
      if (!outcomes) break;
      lane.splice(0, run.length);
      run.forEach((item, i) => finish(item, outcomes[i]!));
    }
    lanes.delete(key);
  }

  function takeRun(lane: QueuedDispatch[]): QueuedDispatch[] {
    const limit = Math.max(1, o.batchSize(lane[0]!.t));
    let n = 1;
    while (n < limit && n < lane.length && lane[n]!.t === lane[0]!.t) n += 1;
    return lane.slice(0, n);
  }

  /** Handles a run until it passes or fails for another reason than an outage; a failed batch goes one by one. */
  async function handleRun(run: QueuedDispatch[]): Promise<Array<'handled' | 'failed'>> {
    let delay = backoff.initialMs;
    for (;;) {
      try {
        await o.handle(run);
        return run.map(() => 'handled');
      } catch (err) {
        if (closed) throw err;
        if (!isDependencyUnavailable(err)) {
          if (run.length > 1) {
            const outcomes: Array<'handled' | 'failed'> = [];
            for (const item of run) outcomes.push(...(await handleRun([item])));
            return outcomes;
          }
          o.onFailure(run[0]!, err);
          return ['failed'];
        }
        // A stop the platform named (the fleet's ban latch, a long rate limit) is waited out, not retried into.
        const wait = Math.max(delay, platformWaitMs(err));
        o.onRetry(run, err, wait);
        await pause(wait);
        if (closed) throw err;
        delay = Math.min(delay * 2, backoff.maxMs);
      }
    }
  }

  function finish(item: QueuedDispatch, outcome: 'handled' | 'failed') {
    size -= 1;
    if (!item.unbounded) bounded -= 1;
    o.onDone(item, outcome);
    if (paused && bounded <= o.maxQueued / 2) {
      paused = false;
      o.onPressure(false);
    }
    if (size === 0) {
      const waiting = idle;
      idle = [];
      waiting.forEach((resolve) => resolve());
    }
  }

  return {
    push,
    get size() {
      return size;
    },
    drained: () => (size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))),
    async stop() {
      closed = true;
      wakeRetries.forEach((wake) => wake());
      await Promise.all([...running]);
    },
  };
}

/** How long the platform asked to be left alone (PlatformUnavailableError's Retry-After), 0 when it did not say. */
function platformWaitMs(err: unknown): number {
  return err instanceof PlatformUnavailableError && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0;
}
