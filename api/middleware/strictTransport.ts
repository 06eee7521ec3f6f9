import type { AppMiddleware } from '../context.js';

/**
 * Strict-Transport-Security on every response to an https request (ctx.secure: TLS here, or X-Forwarded-Proto from a
 * trusted proxy), so a browser that once reached the api over https never tries plain http for it again and a first
 * http visit cannot be downgraded later (ASVS 3.4.1). Browsers ignore the header over http, so it is not sent there.
 * Not mounted with HSTS_MAX_AGE_SECONDS=0, for a balancer that sends it itself.
 */
export function strictTransport(maxAgeSeconds: number): AppMiddleware {
  const value = `max-age=${maxAgeSeconds}; includeSubDomains`;
  return (ctx, next) => {
    if (ctx.secure) ctx.set('Strict-Transport-Security', value);
    return next();
  };
}
