import Koa from 'koa';
import type { AppDeps, RequestState } from './context.js';
import { errorBoundary } from './middleware/errorBoundary.js';
import { requestMetrics } from './middleware/requestMetrics.js';
import { routeFallback } from './middleware/fallback.js';
import { strictTransport } from './middleware/strictTransport.js';
import { flowWebhooks } from './routes/flowWebhooks.js';
import { consoleApp } from './console/consoleApp.js';
import { buildOpenApiDocument } from './openapi.js';
import { mountRoutes } from './mountRoutes.js';
import type { RouteDefinition } from './route.js';
import { RouteTable } from './routeTable.js';

export const API_PREFIX = '/api/v1';

/** The Koa application with the areas' routes; entrypoints and tests call this with their own dependencies. */
export function createApp(deps: AppDeps, routes: RouteDefinition[]): Koa<RequestState> {
  // maxIpsCount keeps only the entries the trusted proxies appended: ctx.ip is then the one the outermost saw, never
  // what the client wrote further left in X-Forwarded-For (which would dodge or aim the address limits).
  const proxies = deps.config.http.trustedProxies;
  const app = new Koa<RequestState>({ proxy: proxies > 0, maxIpsCount: proxies });
  app.use(requestMetrics());
  if (deps.config.http.hstsMaxAgeSeconds > 0) app.use(strictTransport(deps.config.http.hstsMaxAgeSeconds));
  app.use(errorBoundary(deps.logger));
  // First after the boundary: an API request, most of the traffic, passes through nothing else.
  app.use(apiRoutes(deps, routes).middleware());
  // HTML pages with their own error pages, sessions and CSRF checks, outside the API's JSON contract.
  app.use(consoleApp(deps));
  app.use(routeFallback());
  app.use(flowWebhooks(deps));
  return app;
}

/** Everything under /api/v1: the OpenAPI document and the areas' routes. */
export function apiRoutes(deps: AppDeps, routes: RouteDefinition[]): RouteTable {
  const openApiDocument = buildOpenApiDocument(routes, {
    basePath: API_PREFIX,
    limits: deps.config.limits,
    bodyLimitBytes: deps.config.http.bodyLimitBytes,
  });

  const api = new RouteTable(API_PREFIX);
  // The description is public and harmless, so browsers (API explorers) may read it despite the Origin rule.
  api.add('get', '/openapi.json', [
    (ctx) => {
      ctx.body = openApiDocument;
    },
  ]);
  mountRoutes(api, routes, deps);
  return api;
}
