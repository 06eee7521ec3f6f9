import { apiRefusals, httpRequestDuration } from '../../src/core/metrics.js';
import type { AppContext, AppMiddleware } from '../context.js';

/**
 * Mounted outermost, so it sees every answer as sent (errors already turned into responses): requests and
 * latency by route template (never the raw path, whose ids and tokens would make a series per request) and
 * refusals by reason (Idempotency-Key replays are counted where they are answered: api/idempotentRequest.ts).
 */
export function requestMetrics(): AppMiddleware {
  return async (ctx, next) => {
    // No timer closure: this runs on every request. http_requests_total is the histogram's counts (src/core/metrics.ts).
    const started = performance.now();
    try {
      await next();
    } finally {
      httpRequestDuration.observe({ method: ctx.method, route: routeOf(ctx), status: String(ctx.status) }, (performance.now() - started) / 1000);
      const reason = refusalReason(ctx);
      if (reason) apiRefusals.inc({ reason });
    }
  };
}

function routeOf(ctx: AppContext): string {
  const matched = (ctx as AppContext & { _matchedRoute?: string | RegExp })._matchedRoute;
  return typeof matched === 'string' ? matched : 'unmatched';
}

/** 401s by their code; a 429 with rate headers is the key's limit, one without them the address throttle. */
function refusalReason(ctx: AppContext): string | undefined {
  if (ctx.status !== 401 && ctx.status !== 429) return undefined;
  const code = (ctx.body as { error?: unknown } | undefined)?.error;
  if (ctx.status === 401 && typeof code === 'string') return code;
  if (code === 'RATE_LIMITED') return ctx.response.get('X-RateLimit-Limit') ? 'key_rate_limit' : 'address_throttle';
  return undefined;
}
