import type { z } from 'zod';
import { invalidRequest, type IssueLocation, type ValidationIssue } from '../src/core/errors.js';
import type { AppDeps, AppGate, AppMiddleware } from './context.js';
import { authenticate } from './middleware/authenticate.js';
import { featureGate } from './middleware/featureGate.js';
import { guildAccess } from './middleware/guildAccess.js';
import { jsonBody } from './middleware/jsonBody.js';
import { originGuard } from './middleware/originGuard.js';
import { rateLimit } from './middleware/rateLimit.js';
import { requireScope } from './middleware/requireScope.js';
import type { RouteDefinition } from './route.js';
import type { RouteTable } from './routeTable.js';
import { runHandler } from './runHandler.js';

export const koaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Mounts each route behind the shared chain, in this order: origin, key, rate limit, guild, scope, feature,
 * body, validation (docs/architecture.md explains why).
 */
export function mountRoutes(table: RouteTable, routes: RouteDefinition[], deps: AppDeps): void {
  const { db, clock } = deps;
  const origin = originGuard();
  const key = authenticate({ db, clock, keyHits: deps.keyHits, failuresPerMinute: deps.config.limits.authFailuresPerMinute, credentials: deps.credentials });
  const shared: AppGate[] = [rateLimit({ clock, perMinute: deps.config.limits.requestsPerMinute }), guildAccess()];
  for (const route of routes) {
    const gates = [...shared, requireScope(route.scope)];
    if (route.feature) gates.push(featureGate(route.feature));
    const chain: AppMiddleware[] = [origin, key, allGates(gates)];
    if (route.request.body) chain.push(jsonBody(deps.config.http.bodyLimitBytes));
    // Not async, as the gates: one promise fewer per request (a throw here still rejects through koa-compose).
    chain.push((ctx) => {
      const issues: ValidationIssue[] = [];
      const params = validate(route.request.params, ctx.params, 'path', issues);
      const query = validate(route.request.query, ctx.query, 'query', issues);
      const body = validate(route.request.body, ctx.state.body, 'body', issues);
      if (issues.length > 0) throw invalidRequest(issues);
      return runHandler(ctx, route, { params, query, body }, deps);
    });
    table.add(route.method, koaPath(route.path), chain);
  }
}

/** The synchronous checks in their order, as one step of the chain rather than one step each. */
function allGates(gates: AppGate[]): AppMiddleware {
  return (ctx, next) => {
    for (const gate of gates) gate(ctx);
    return next();
  };
}

function validate(schema: z.ZodType | undefined, value: unknown, location: IssueLocation, issues: ValidationIssue[]) {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    issues.push({ location, path: issue.path.map(String).join('.'), message: issue.message });
  }
  return undefined;
}
