import type { QueuedDispatch } from './queuedDispatch.js';

export interface DispatchBound {
  /** Dispatches held (waiting or being handled), unbounded ones included. */
  readonly size: number;
  /** Counts a dispatch pushed; at `maxQueued` bounded ones asks the gateway side to stop reading. */
  held(item: QueuedDispatch): void;
  /**
   * Counts a dispatch done with: `done` is told first, then the gateway side may go on (half of the bound is
   * done) and `drained()` resolves once nothing is held.
   */
  released(item: QueuedDispatch, done: () => void): void;
  /** Resolves once every dispatch held so far is done with. */
  drained(): Promise<void>;
}

/**
 * The dispatch queue's bound (back-pressure): at `maxQueued` it asks the gateway side to stop reading, and to go on
 * once half of it is done, so an outage costs waiting, not memory. Unbounded items (the bot's own paced work) count
 * toward the size but not toward the bound.
 */
export function createDispatchBound(maxQueued: number, onPressure: (paused: boolean) => void): DispatchBound {
  let size = 0;
  /** Items counted toward the bound. */
  let bounded = 0;
  let paused = false;
  let idle: Array<() => void> = [];

  return {
    get size() {
      return size;
    },
    held(item) {
      size += 1;
      if (item.unbounded) return;
      bounded += 1;
      // Again at each dispatch past the bound: a connection opened since (a resume) starts unpaused.
      if (bounded >= maxQueued) {
        paused = true;
        onPressure(true);
      }
    },
    released(item, done) {
      size -= 1;
      if (!item.unbounded) bounded -= 1;
      done();
      if (paused && bounded <= maxQueued / 2) {
        paused = false;
        onPressure(false);
      }
      if (size === 0) {
        const waiting = idle;
        idle = [];
        waiting.forEach((resolve) => resolve());
      }
    },
    drained: () => (size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))),
  };
}
