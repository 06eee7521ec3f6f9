import { browserRequestsNotAllowed } from '../../src/errors.js';
import type { AppMiddleware } from '../context.js';

/** The API is server-to-server only: any Origin header means a browser sent the request. */
export function originGuard(): AppMiddleware {
  return async (ctx, next) => {
    if (ctx.get('Origin') !== '') throw browserRequestsNotAllowed();
    await next();
  };
}
