import type { VNode } from 'preact';
import { render } from 'preact-render-to-string';
import type Koa from 'koa';

/** Sends a server-rendered page; the renderer escapes every text and attribute value. */
export function sendPage(ctx: Koa.Context, page: VNode, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html>${render(page)}`;
}

/** Post/redirect/get: 303 so a reload never repeats the action. */
export function seeOther(ctx: Koa.Context, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
}
