import type { Kysely } from 'kysely';
import { countHit } from '../../db/rateLimits.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/clock.js';
import { currentWindow } from '../../src/domain/fixedWindow.js';
import type { Plan } from '../../src/domain/plans.js';
import { rateLimited } from '../../src/errors.js';
import type { AppMiddleware } from '../context.js';

/**
 * Per-key request rate by plan, counted in PostgreSQL so every api instance shares it. Sets the
 * X-RateLimit-* headers on every authenticated response, errors included (see docs/api-decisions.md).
 */
export function rateLimit(deps: { db: Kysely<Database>; clock: Clock; perMinute: Readonly<Record<Plan, number>> }): AppMiddleware {
  return async (ctx, next) => {
    const { apiKey, guild } = ctx.state;
    const limit = deps.perMinute[guild!.plan];
    const window = currentWindow(deps.clock.now());
    const count = await countHit(deps.db, `key:${apiKey!.id}`, window.start);
    ctx.set({
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
      'X-RateLimit-Reset': String(window.secondsToReset),
    });
    if (count > limit) throw rateLimited(window.secondsToReset);
    await next();
  };
}
