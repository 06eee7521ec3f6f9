import { notFound } from '../../src/core/errors.js';
import type { AppMiddleware } from '../context.js';

/**
 * Turns a request no route answered into the API's 404 shape. Mounted before the routes outside the API root
 * (flow webhooks); the API's own table answers 405 for a known path itself (api/routeTable.ts).
 */
export function routeFallback(): AppMiddleware {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status === 404) throw notFound();
  };
}
