import type Koa from 'koa';
import { consoleCookie } from './sessionCookie.js';

const BASE = 'console_sign_in';

/** The nonce of the Discord sign-in this browser began, if it holds one. */
export const readSignInCookie = (ctx: Koa.Context): string | undefined => ctx.cookies.get(consoleCookie(ctx, BASE).name) || undefined;

function write(ctx: Koa.Context, value: string, maxAgeSeconds: number): void {
  const { name, secure } = consoleCookie(ctx, BASE);
  ctx.append('Set-Cookie', [`${name}=${value}`, `Max-Age=${maxAgeSeconds}`, 'Path=/', 'SameSite=Lax', ...(secure ? ['Secure'] : []), 'HttpOnly'].join('; '));
}

/**
 * The session cookie's attributes, living as long as the pending sign-in. Written by hand because the cookie library
 * writes only `Expires`, from the server's wall clock; `Max-Age` counts on the browser's. SameSite=Lax still sends it
 * on the top-level redirect back from Discord.
 */
export const setSignInCookie = (ctx: Koa.Context, nonce: string, maxAgeSeconds: number): void => write(ctx, nonce, maxAgeSeconds);

export const clearSignInCookie = (ctx: Koa.Context): void => write(ctx, '', 0);
