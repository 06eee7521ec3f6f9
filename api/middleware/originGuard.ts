import { browserRequestsNotAllowed } from '../../src/core/errors.js';
import type { AppMiddleware } from '../context.js';

/** The API is server-to-server only: any Origin header means a browser sent the request. */
export function originGuard(): AppMiddleware {
  return (ctx, next) => {
    // Presence is what counts: browsers send `Origin: null` or an empty value in some contexts too.
    if (ctx.req.headers.origin !== undefined) throw browserRequestsNotAllowed();
    return next();
  };
}
