import { sleep } from '@temporalio/workflow';

/** Thrown where a run's own time passes its flow's timeout: the run ends `stopped` with this message. */
export class FlowTimedOut extends Error {
  constructor(timeoutSeconds: number) {
    super(`the flow's timeout of ${timeoutSeconds} s passed`);
    this.name = 'FlowTimedOut';
  }
}

/**
 * The flow's own timeout as a budget of the time the flow itself spends: its wait nodes and its HTTP requests.
 * The service's own steps (expressions, effects, the run's record) do not count, so an outage of the database,
 * the platform or the worker, which those steps wait out, never ends a run `stopped` between two of its effects;
 * without an outage they take milliseconds, and the timeout bounds the run as a timer around it would.
 */
export class TimeBudget {
  private leftMs: number;

  constructor(private readonly timeoutSeconds: number) {
    this.leftMs = timeoutSeconds * 1000;
  }

  /** A wait node: sleeps its time, or what is left of the budget and then ends the run. */
  async wait(ms: number): Promise<void> {
    if (ms > this.leftMs) {
      if (this.leftMs > 0) await sleep(this.leftMs);
      throw new FlowTimedOut(this.timeoutSeconds);
    }
    await sleep(ms);
    this.leftMs -= ms;
  }

  /**
   * An HTTP request: counts the time until its answer, at most `limitMs` (its own limit; the rest is time its
   * activity waited for a worker, the service's); past the budget the answer is dropped and the run ends.
   */
  async request<T>(limitMs: number, send: () => Promise<T>): Promise<T> {
    const sentAt = Date.now();
    const answer = await send();
    this.leftMs -= Math.min(Date.now() - sentAt, limitMs);
    if (this.leftMs < 0) throw new FlowTimedOut(this.timeoutSeconds);
    return answer;
  }
}
