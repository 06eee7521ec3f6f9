import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps, RequestState } from './context.js';
import { errorBoundary } from './middleware/errorBoundary.js';
import { requestMetrics } from './middleware/requestMetrics.js';
import { routeFallback } from './middleware/fallback.js';
import { flowWebhooks } from './routes/flowWebhooks.js';
import { consoleApp } from './console/consoleApp.js';
import { originGuard } from './middleware/originGuard.js';
import { buildOpenApiDocument } from './openapi.js';
import { mountRoutes } from './mountRoutes.js';
import type { RouteDefinition } from './route.js';

export const API_PREFIX = '/api/v1';

/** The Koa application with the areas' routes; entrypoints and tests call this with their own dependencies. */
export function createApp(deps: AppDeps, routes: RouteDefinition[]): Koa<RequestState> {
  const app = new Koa<RequestState>({ proxy: deps.config.http.trustProxy });
  const openApiDocument = buildOpenApiDocument(routes, {
    basePath: API_PREFIX,
    limits: deps.config.limits,
    bodyLimitBytes: deps.config.http.bodyLimitBytes,
  });

  const publicRouter = new Router<RequestState>({ prefix: API_PREFIX });
  // The description is public and harmless, so browsers (API explorers) may read it despite the Origin rule.
  publicRouter.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument;
  });

  const router = new Router<RequestState>({ prefix: API_PREFIX });
  router.use(originGuard());
  mountRoutes(router, routes, deps);

  app.use(requestMetrics());
  app.use(errorBoundary(deps.logger));
  // HTML pages with their own error pages, sessions and CSRF checks, outside the API's JSON contract.
  app.use(consoleApp(deps));
  app.use(routeFallback());
  app.use(flowWebhooks(deps));
  app.use(publicRouter.routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
