import { describe, expect, it } from 'vitest';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import { dispatchLane } from '../../process/bot/dispatchLane.js';
import { createDispatchQueue, type DispatchQueueOptions } from '../../process/bot/dispatchQueue.js';
import type { QueuedDispatch } from '../../process/bot/queuedDispatch.js';

// The dispatch queue on its own: order per server, retries on outages only, the bound. Its waits between retries
// are the test's own (no timers): a retry goes on when the test says so.

const outage = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

let seq = 0;
const item = (lane: string, t = 'X'): QueuedDispatch => ({ t, s: ++seq, d: { n: seq }, shardId: 0, lane, receivedAt: 0 });

function bed(handle: DispatchQueueOptions['handle'], overrides: Partial<DispatchQueueOptions> = {}) {
  const log: string[] = [];
  const pressure: boolean[] = [];
  const retries: Array<{ s: number[]; delayMs: number }> = [];
  let wake: Array<() => void> = [];
  const queue = createDispatchQueue({
    handle,
    batchSize: () => 1,
    maxQueued: 100,
    concurrency: 4,
    onPressure: (paused) => pressure.push(paused),
    onDone: (i, outcome) => log.push(`${i.lane}:${i.s}:${outcome}`),
    onFailure: (i, err) => log.push(`${i.lane}:${i.s}:error ${(err as Error).message}`),
    onRetry: (run, _err, delayMs) => retries.push({ s: run.map((r) => r.s), delayMs }),
    wait: () => new Promise<void>((resolve) => wake.push(resolve)),
    ...overrides,
  });
  const retryNow = () => {
    const waiting = wake;
    wake = [];
    waiting.forEach((resolve) => resolve());
  };
  return { queue, log, pressure, retries, retryNow, waitingRetries: () => wake.length };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
};

describe('the dispatch queue', () => {
  it("retries an outage with doubling delays while holding that server's later dispatches back; other servers go on", async () => {
    let down = true;
    const applied: number[] = [];
    const b = bed(async ([i]) => {
      if (i!.lane === 'a' && down) throw outage();
      applied.push(i!.s);
    });
    const [a1, a2, b1] = [item('a'), item('a'), item('b')];
    [a1, a2, b1].forEach((i) => b.queue.push(i));
    await until(() => b.log.includes(`b:${b1.s}:handled`) && b.waitingRetries() === 1);
    for (let n = 0; n < 6; n += 1) {
      b.retryNow();
      await until(() => b.waitingRetries() === 1);
    }
    expect(applied).toEqual([b1.s]);
    expect(b.retries.map((r) => r.delayMs)).toEqual([100, 200, 400, 800, 1600, 3200, 5000]);
    expect(b.retries.every((r) => r.s[0] === a1.s)).toBe(true);
    down = false;
    b.retryNow();
    await b.queue.drained();
    expect(applied).toEqual([b1.s, a1.s, a2.s]);
    expect(b.log).toEqual([`b:${b1.s}:handled`, `a:${a1.s}:handled`, `a:${a2.s}:handled`]);
  });

  it("waits out a stop the platform named (the fleet's ban latch: Retry-After) instead of its backoff", async () => {
    let stopped = true;
    const b = bed(async () => {
      if (stopped) throw new PlatformUnavailableError('Discord requests are stopped (cloudflare 429)', 3600);
    });
    const a1 = item('a');
    b.queue.push(a1);
    await until(() => b.waitingRetries() === 1);
    stopped = false;
    b.retryNow();
    await b.queue.drained();
    expect(b.retries).toEqual([{ s: [a1.s], delayMs: 3_600_000 }]);
    expect(b.log).toEqual([`a:${a1.s}:handled`]);
  });

  it('reports a failure that is not an outage once and passes over it, without retrying', async () => {
    const b = bed(async ([i]) => {
      if ((i!.d as { n: number }).n === bad.s) throw new Error('duplicate key value violates unique constraint');
    });
    const bad = item('a');
    const next = item('a');
    b.queue.push(bad);
    b.queue.push(next);
    await b.queue.drained();
    expect(b.retries).toEqual([]);
    expect(b.log).toEqual([`a:${bad.s}:error duplicate key value violates unique constraint`, `a:${bad.s}:failed`, `a:${next.s}:handled`]);
  });

  it('hands consecutive dispatches of a batchable type over together, and one by one when the batch fails for another reason than an outage', async () => {
    const runs: number[][] = [];
    // A first dispatch is held, so that the others are all queued when the lane goes on.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = item('a', 'Y');
    const items = [item('a', 'M'), item('a', 'M'), item('a', 'M'), item('a', 'M'), item('a', 'Y'), item('a', 'M')];
    const [m1, m2, m3, m4, y, m5] = items.map((i) => i.s);
    const b = bed(
      async (run) => {
        runs.push(run.map((i) => i.s));
        if (run[0]!.s === first.s) await held;
        if (run.some((i) => i.s === m2)) throw new Error('bad row');
      },
      { batchSize: (t) => (t === 'M' ? 3 : 1), concurrency: 1 },
    );
    b.queue.push(first);
    items.forEach((i) => b.queue.push(i));
    release();
    await b.queue.drained();
    expect(runs).toEqual([[first.s], [m1, m2, m3], [m1], [m2], [m3], [m4], [y], [m5]]);
    expect(b.log.filter((l) => l.endsWith(':failed'))).toEqual([`a:${m2}:failed`]);
  });

  it('asks the gateway side to stop reading at its bound and to go on once half of it is done', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const b = bed(() => held, { maxQueued: 4, concurrency: 1 });
    for (let n = 0; n < 3; n += 1) b.queue.push(item('a'));
    expect(b.pressure).toEqual([]);
    b.queue.push(item('a'));
    expect(b.pressure).toEqual([true]);
    expect(b.queue.size).toBe(4);
    release();
    await b.queue.drained();
    expect(b.pressure).toEqual([true, false]);
    expect(b.queue.size).toBe(0);
  });

  it("counts unbounded items (the bot's own paced work) toward its size but not toward the bound", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const b = bed(() => held, { maxQueued: 4, concurrency: 1 });
    for (let n = 0; n < 10; n += 1) b.queue.push({ ...item(`r${n}`, 'RECONCILE'), unbounded: true });
    for (let n = 0; n < 3; n += 1) b.queue.push(item('a'));
    expect(b.pressure).toEqual([]);
    expect(b.queue.size).toBe(13);
    b.queue.push(item('a'));
    expect(b.pressure).toEqual([true]);
    release();
    await b.queue.drained();
  });

  it('handles urgent lanes in slots of their own, while every server slot is held', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const b = bed(async ([i]) => (i!.t === 'BUSY' ? held : undefined), { concurrency: 1, urgentConcurrency: 1 });
    for (let n = 0; n < 5; n += 1) b.queue.push(item(`server${n}`, 'BUSY'));
    const [i1, i2] = [
      { ...item('interaction:1', 'INTERACTION_CREATE'), urgent: true },
      { ...item('interaction:2', 'INTERACTION_CREATE'), urgent: true },
    ];
    b.queue.push(i1);
    b.queue.push(i2);
    await until(() => b.log.length === 2);
    expect(b.log).toEqual([`interaction:1:${i1.s}:handled`, `interaction:2:${i2.s}:handled`]);
    release();
    await b.queue.drained();
  });

  it('stops: a retry waiting on an outage gives up, and nothing more is handled', async () => {
    const b = bed(async () => {
      throw outage();
    });
    b.queue.push(item('a'));
    b.queue.push(item('a'));
    await until(() => b.waitingRetries() === 1);
    await b.queue.stop();
    expect(b.log).toEqual([]);
    expect(b.retries).toHaveLength(1);
  });
});

describe('the lane of a dispatch', () => {
  it.each([
    ['MESSAGE_CREATE', { id: '1', guild_id: '20' }, '20'],
    ['GUILD_MEMBER_ADD', { guild_id: '20', user: { id: '3' } }, '20'],
    ['GUILD_CREATE', { id: '20', name: 'server' }, '20'],
    ['GUILD_DELETE', { id: '20', unavailable: true }, '20'],
    ['INTERACTION_CREATE', { id: '555', guild_id: '20' }, 'interaction:555'],
    ['MESSAGE_CREATE', { id: '1' }, ''],
    ['READY', { v: 10, guilds: [] }, ''],
    ['RESUMED', null, ''],
  ])('%s %o waits in lane %j', (t, d, lane) => {
    expect(dispatchLane(t, d)).toBe(lane);
  });
});
