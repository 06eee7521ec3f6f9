import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps, RequestState } from './context.js';
import { errorBoundary } from './middleware/errorBoundary.js';
import { routeFallback } from './middleware/fallback.js';
import { originGuard } from './middleware/originGuard.js';
import { buildOpenApiDocument } from './openapi.js';
import { mountRoutes, type RouteDefinition } from './route.js';
import { bankRoutes } from './routes/bank.js';
import { guildRoutes } from './routes/guild.js';
import { appealsRoutes } from './routes/appeals.js';
import { levelsRoutes } from './routes/levels.js';
import { moderationRoutes } from './routes/moderation.js';

export const API_PREFIX = '/api/v1';

export function allRoutes(deps: AppDeps): RouteDefinition[] {
  return [...guildRoutes(deps), ...bankRoutes(deps), ...levelsRoutes(deps), ...moderationRoutes(deps), ...appealsRoutes(deps)];
}

/** The Koa application with every route; entrypoints and tests call this with their own dependencies. */
export function createApp(deps: AppDeps): Koa<RequestState> {
  const app = new Koa<RequestState>({ proxy: deps.config.http.trustProxy });
  const routes = allRoutes(deps);
  const openApiDocument = buildOpenApiDocument(routes);

  const publicRouter = new Router<RequestState>({ prefix: API_PREFIX });
  // The description is public and harmless, so browsers (API explorers) may read it despite the Origin rule.
  publicRouter.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument;
  });

  const router = new Router<RequestState>({ prefix: API_PREFIX });
  router.use(originGuard());
  mountRoutes(router, routes, deps);

  app.use(errorBoundary(deps.logger));
  app.use(routeFallback());
  app.use(publicRouter.routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
