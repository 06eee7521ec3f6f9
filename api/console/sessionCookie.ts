import type Koa from 'koa';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * `__Host-` (Secure, path /, no Domain) everywhere but plain-HTTP localhost, where a browser would drop a Secure cookie
 * (TOOLCHAIN pitfall 15); HttpOnly and SameSite=Lax always. Behind TLS termination set TRUST_PROXY so Koa sees https.
 */
function cookieOf(ctx: Koa.Context): { name: string; secure: boolean } {
  const local = LOCAL_HOSTS.has(ctx.hostname) && !ctx.secure;
  return local ? { name: 'console_session', secure: false } : { name: '__Host-console_session', secure: true };
}

export const readSessionCookie = (ctx: Koa.Context): string | undefined => ctx.cookies.get(cookieOf(ctx).name) || undefined;

export function writeSessionCookie(ctx: Koa.Context, token: string | null): void {
  const { name, secure } = cookieOf(ctx);
  ctx.cookies.set(name, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', overwrite: true });
}
