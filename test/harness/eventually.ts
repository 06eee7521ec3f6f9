import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` until it returns a value that `done` accepts, for at most `timeoutMs`. The bound only ends a wait
 * that will never be met: it is generous (a loaded CI machine runs a step in seconds that takes milliseconds here),
 * and a met condition returns at once.
 */
export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(50);
  }
}
