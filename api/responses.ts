import type { AppContext, AppDeps } from './context.js';
import type { RouteDefinition } from './route.js';
import { responseCheckFor } from './responseCheck.js';

/**
 * The documented schema is what leaves (and what a replay returns): unknown fields are stripped, and a handler
 * returning something else fails loudly (500) instead of drifting from the OpenAPI document (api/responseCheck.ts:
 * the whole schema in tests and development, a compiled shape check in production).
 */
export const documentedBody = (route: RouteDefinition, deps: AppDeps): ((body: unknown) => unknown) =>
  responseCheckFor(route.response.schema, deps.config.http.responseCheck);

/** A settled answer, parsed by the documented schema like any other. */
export function respondSettled(ctx: AppContext, route: RouteDefinition, settled: { status: number; body: unknown }, deps: AppDeps): void {
  ctx.status = settled.status;
  ctx.body = documentedBody(route, deps)(settled.body);
}

/** Sends JSON text as it is (Koa would otherwise send a string as text/plain). */
export function sendJsonText(ctx: AppContext, text: string): void {
  ctx.type = 'application/json';
  ctx.body = text;
}
