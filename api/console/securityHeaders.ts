import type Koa from 'koa';

/**
 * Every console response: scripts and styles from the api itself only (no inline script, no CDN), never framed,
 * never cached (pages carry keys shown once and CSRF tokens), no referrer leaving the console.
 */
export function securityHeaders(formTargets: string[]): Koa.Middleware {
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action 'self'${formTargets.map((t) => ` ${t}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return async (ctx, next) => {
    ctx.set({
      'Content-Security-Policy': csp,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Cache-Control': 'no-store',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    await next();
  };
}
