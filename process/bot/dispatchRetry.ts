import { isDependencyUnavailable } from '../../src/core/dependencyErrors.js';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import type { DispatchOutcome, QueuedDispatch } from './queuedDispatch.js';

export interface RunRetryOptions {
  /**
   * Handles dispatches of one type and one server, in gateway order. It gets one dispatch, or several in a row
   * when `batchSize` allows it for their type (all applied, or none: it must be one transaction).
   */
  handle(run: QueuedDispatch[]): Promise<void>;
  onFailure(item: QueuedDispatch, err: unknown): void;
  onRetry(run: QueuedDispatch[], err: unknown, delayMs: number): void;
  backoff?: { initialMs: number; maxMs: number };
  wait?: (ms: number) => Promise<void>;
}

export interface RunRetrier {
  /**
   * Handles a run until it passes or fails for another reason than an outage; a failed batch goes one by one.
   * Rejects once stopped while the run waits on an outage: the run is left unhandled.
   */
  handleRun(run: QueuedDispatch[]): Promise<DispatchOutcome[]>;
  /** Gives up every retry waiting on an outage, now and later. */
  stop(): void;
}

const DEFAULT_BACKOFF = { initialMs: 100, maxMs: 5_000 };

/**
 * The dispatch queue's handling of one run. A failure on an outage (the database down: src/core/dependencyErrors.ts)
 * is retried with exponential backoff until it passes, so the lane holding the run waits; any other failure is
 * reported and passed over, as retrying cannot cure it.
 */
export function createRunRetrier(o: RunRetryOptions): RunRetrier {
  const backoff = o.backoff ?? DEFAULT_BACKOFF;
  const wait = o.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  let stopped = false;
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

  async function handleRun(run: QueuedDispatch[]): Promise<DispatchOutcome[]> {
    let delay = backoff.initialMs;
    for (;;) {
      try {
        await o.handle(run);
        return run.map(() => 'handled');
      } catch (err) {
        if (stopped) throw err;
        if (!isDependencyUnavailable(err)) {
          if (run.length > 1) {
            const outcomes: DispatchOutcome[] = [];
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
        if (stopped) throw err;
        delay = Math.min(delay * 2, backoff.maxMs);
      }
    }
  }

  return {
    handleRun,
    stop() {
      stopped = true;
      wakeRetries.forEach((wake) => wake());
    },
  };
}

/** How long the platform asked to be left alone (PlatformUnavailableError's Retry-After), 0 when it did not say. */
function platformWaitMs(err: unknown): number {
  return err instanceof PlatformUnavailableError && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0;
}
