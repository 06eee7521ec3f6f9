import { methodNotAllowed, notFound } from '../../src/errors.js';
import type { AppMiddleware } from '../context.js';

/** Turns the router's bare 404/405 into the API's error shape. Mounted before the router. */
export function routeFallback(): AppMiddleware {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status === 405) throw methodNotAllowed(ctx.response.get('Allow').split(/,\s*/));
    if (ctx.status === 404) throw notFound();
  };
}
