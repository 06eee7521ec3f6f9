import { describe, expect, it } from 'vitest';
import { inParallel } from '../../../src/core/inParallel.js';

/** A promise the test settles itself, so no assertion waits on time. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Counts the calls in flight; each call yields to the event loop once before it settles. */
function flightRecorder() {
  const seen = { started: [] as number[], inFlight: 0, most: 0 };
  const each = async (item: number) => {
    seen.started.push(item);
    seen.inFlight += 1;
    seen.most = Math.max(seen.most, seen.inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    seen.inFlight -= 1;
  };
  return { seen, each };
}

describe('inParallel', () => {
  it.each([
    ['fewer items than the limit', 3, 8, 3],
    ['as many items as the limit', 4, 4, 4],
    ['more items than the limit', 10, 3, 3],
    ['a limit of one', 5, 1, 1],
  ])('%s: every item once, in order, with at most the limit in flight', async (_label, count, limit, most) => {
    const { seen, each } = flightRecorder();
    const items = Array.from({ length: count }, (_, i) => i);
    await inParallel(items, limit, each);
    expect(seen.started).toEqual(items);
    expect(seen.most).toBe(most);
    expect(seen.inFlight).toBe(0);
  });

  it('calls nothing for no items', async () => {
    const { seen, each } = flightRecorder();
    await inParallel([], 4, each);
    expect(seen.started).toEqual([]);
  });

  it('lets the other lanes take the remaining items while one item is held', async () => {
    const held = gate();
    const othersDone = gate();
    const done: number[] = [];
    const running = inParallel([0, 1, 2, 3, 4], 2, async (item) => {
      if (item === 0) await held.opened;
      done.push(item);
      if (done.length === 4) othersDone.open();
    });
    await othersDone.opened;
    expect(done).toEqual([1, 2, 3, 4]);
    held.open();
    await running;
    expect(done).toEqual([1, 2, 3, 4, 0]);
  });

  it('rejects with the error of the item that failed', async () => {
    const failure = new Error('item 2 failed');
    await expect(
      inParallel([1, 2, 3], 2, async (item) => {
        if (item === 2) throw failure;
      }),
    ).rejects.toBe(failure);
  });
});
