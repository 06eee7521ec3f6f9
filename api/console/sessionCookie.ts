import type Koa from 'koa';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * `__Host-` (Secure, path /, no Domain) everywhere but plain-HTTP localhost, where a browser would drop a Secure cookie
 * (TOOLCHAIN pitfall 15); HttpOnly and SameSite=Lax always. Behind TLS termination set TRUST_PROXY so Koa sees https.
 */
export function consoleCookie(ctx: Koa.Context, base: string): { name: string; secure: boolean } {
  const local = LOCAL_HOSTS.has(ctx.hostname) && !ctx.secure;
  return local ? { name: base, secure: false } : { name: `__Host-${base}`, secure: true };
}

export const readSessionCookie = (ctx: Koa.Context): string | undefined => ctx.cookies.get(consoleCookie(ctx, 'console_session').name) || undefined;

export function writeSessionCookie(ctx: Koa.Context, token: string | null): void {
  const { name, secure } = consoleCookie(ctx, 'console_session');
  ctx.cookies.set(name, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', overwrite: true });
}
