/**
 * Rate limits count hits in fixed one-minute windows aligned to the clock (12:00:00-12:00:59 ...).
 * X-RateLimit-Reset and Retry-After are the whole seconds until the current window ends (at least 1).
 */
export const WINDOW_MS = 60_000;

export interface WindowPosition {
  start: Date;
  secondsToReset: number;
}

export function currentWindow(now: Date): WindowPosition {
  const startMs = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  return {
    start: new Date(startMs),
    secondsToReset: Math.max(1, Math.ceil((startMs + WINDOW_MS - now.getTime()) / 1000)),
  };
}
