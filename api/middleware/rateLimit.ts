import type { Clock } from '../../src/core/clock.js';
import { currentWindow } from '../../src/core/fixedWindow.js';
import type { Plan } from '../../src/core/plans.js';
import { rateLimited } from '../../src/core/errors.js';
import type { AppGate } from '../context.js';

/**
 * Per-key request rate by plan. Authentication counts the hit (api/keyHitCounter.ts: shared by every api
 * instance through PostgreSQL). Sets the X-RateLimit-* headers on every authenticated response, errors
 * included (see docs/api-decisions.md).
 */
export function rateLimit(deps: { clock: Clock; perMinute: Readonly<Record<Plan, number>> }): AppGate {
  return (ctx) => {
    const limit = deps.perMinute[ctx.state.guild!.plan];
    const count = ctx.state.keyHits!;
    const window = currentWindow(deps.clock.now());
    ctx.set({
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
      'X-RateLimit-Reset': String(window.secondsToReset),
    });
    if (count > limit) throw rateLimited(window.secondsToReset);
  };
}
