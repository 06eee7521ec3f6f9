import type { DispatchHandler } from '../../process/bot/handler.js';
import type { BotBed } from './botHarness.js';

/**
 * A HEAVY dispatch handler that fails as a database outage does while `down` is set, and records each dispatch's
 * number once handled: the back-pressure tests hold the bot on it.
 */
export function heavyDispatchHandler() {
  const state = { down: true, attempts: 0, handled: [] as number[] };
  const handlers: Record<string, DispatchHandler> = {
    HEAVY: async (d) => {
      state.attempts += 1;
      if (state.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      state.handled.push((d as { n: number }).n);
    },
  };
  return { state, handlers };
}

/** Sends HEAVY dispatches 1 to `count` from the fake gateway, about 1 kB each: far more than one read of the socket. */
export function sendHeavyDispatches(bed: BotBed, count: number): void {
  const padding = 'x'.repeat(1_000);
  for (let n = 1; n <= count; n += 1) bed.gateway.dispatch('HEAVY', { n, padding });
}
