import { methodNotAllowed, notFound } from '../../src/core/errors.js';
import type { AppMiddleware } from '../context.js';

/**
 * Turns the router's bare 404/405/501 into the API's error shape. Mounted before the router. The router
 * answers 501 (text/plain) for methods it does not implement at all (PURGE, PROPFIND ...): on a known
 * path that is 405 with Allow like any other method the path lacks, elsewhere 404.
 */
export function routeFallback(): AppMiddleware {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status === 404) throw notFound();
    if (ctx.status !== 405 && ctx.status !== 501) return;
    const allowed = ctx.response.get('Allow').split(/,\s*/).filter(Boolean);
    ctx.remove('Allow');
    throw allowed.length > 0 ? methodNotAllowed(allowed) : notFound();
  };
}
