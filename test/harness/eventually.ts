import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `probe` until it returns a value that `done` accepts, for at most `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(50);
  }
}
