import type { Clock } from './clock.js';

/**
 * A relay pass run at most once per `everyMs` of the clock (and again at once if the clock went back): the start
 * relay ticks every 2 s, and some looks need only a minute's freshness. Skipped ticks answer 0.
 */
export function atMostEvery<D extends { clock: Clock }>(everyMs: number, pass: (deps: D, now: Date) => Promise<number>): (deps: D) => Promise<number> {
  let lastMs: number | undefined;
  return async (deps) => {
    const now = deps.clock.now();
    if (lastMs !== undefined && now.getTime() - lastMs < everyMs && now.getTime() >= lastMs) return 0;
    lastMs = now.getTime();
    return pass(deps, now);
  };
}
