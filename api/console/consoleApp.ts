import { Router } from '@koa/router';
import compose from 'koa-compose';
import type Koa from 'koa';
import { ConsoleRefusal } from '../../src/console/errors.js';
import type { AppDeps, RequestState } from '../context.js';
import { assetRoutes } from './assets.js';
import { consoleErrors } from './consoleErrors.js';
import type { ConsoleState } from './consoleState.js';
import { appealRoutes } from './routes/appealRoutes.js';
import { applicationFormRoutes } from './routes/applicationFormRoutes.js';
import { applicationPanelRoutes } from './routes/applicationPanelRoutes.js';
import { applicationRoutes } from './routes/applicationRoutes.js';
import { auditRoutes } from './routes/auditRoutes.js';
import { bankMemberRoutes } from './routes/bankMemberRoutes.js';
import { bankRoutes } from './routes/bankRoutes.js';
import { deliveryRoutes } from './routes/deliveryRoutes.js';
import { deliverySearchRoutes } from './routes/deliverySearchRoutes.js';
import { endpointToolRoutes } from './routes/endpointToolRoutes.js';
import { giveawayDrawRoutes } from './routes/giveawayDrawRoutes.js';
import { giveawayRoutes } from './routes/giveawayRoutes.js';
import { flowCreateRoutes } from './routes/flowCreateRoutes.js';
import { flowDefinitionRoutes } from './routes/flowDefinitionRoutes.js';
import { flowRoutes } from './routes/flowRoutes.js';
import { discordSignInRoutes } from './routes/discordSignInRoutes.js';
import { inviteRoutes } from './routes/inviteRoutes.js';
import { keyRoutes } from './routes/keyRoutes.js';
import { levelRoutes } from './routes/levelRoutes.js';
import { modActionRoutes } from './routes/modActionRoutes.js';
import { moderationRoutes } from './routes/moderationRoutes.js';
import { overviewRoutes } from './routes/overviewRoutes.js';
import { webhookRoutes } from './routes/webhookRoutes.js';
import { shopRoutes } from './routes/shopRoutes.js';
import { signInRoutes } from './routes/signInRoutes.js';
import { ticketPanelRoutes } from './routes/ticketPanelRoutes.js';
import { ticketRoutes } from './routes/ticketRoutes.js';
import { securityHeaders } from './securityHeaders.js';
import { guardWrites, loadSession, requireSession } from './sessionGuards.js';
import { sessionPolicy } from './sessionPolicy.js';

export const CONSOLE_PREFIX = '/console';

/**
 * The web console under /console: server-rendered HTML pages over the same use cases as the admin CLI, for the
 * servers the signed-in user manages. Not part of the REST API (nor of its OpenAPI document): its own error pages,
 * sessions instead of API keys, CSRF tokens on every write.
 */
export function consoleApp(deps: AppDeps): Koa.Middleware<RequestState> {
  const router = new Router<ConsoleState>({ prefix: CONSOLE_PREFIX });
  assetRoutes(router);
  signInRoutes(router, deps);
  discordSignInRoutes(router, deps);
  router.use('/servers', requireSession);
  overviewRoutes(router, deps);
  levelRoutes(router, deps);
  keyRoutes(router, deps);
  webhookRoutes(router, deps);
  endpointToolRoutes(router, deps);
  deliverySearchRoutes(router, deps);
  deliveryRoutes(router, deps);
  auditRoutes(router, deps);
  // Panels first: their paths would otherwise be taken for a ticket's number.
  ticketPanelRoutes(router, deps);
  ticketRoutes(router, deps);
  applicationFormRoutes(router, deps);
  applicationPanelRoutes(router, deps);
  applicationRoutes(router, deps);
  appealRoutes(router, deps);
  bankRoutes(router, deps);
  bankMemberRoutes(router, deps);
  giveawayRoutes(router, deps);
  giveawayDrawRoutes(router, deps);
  shopRoutes(router, deps);
  flowCreateRoutes(router, deps);
  flowRoutes(router, deps);
  flowDefinitionRoutes(router, deps);
  inviteRoutes(router, deps);
  moderationRoutes(router, deps);
  modActionRoutes(router, deps);

  const oauth = deps.config.console.discordOAuth;
  const chain = compose<Koa.ParameterizedContext<ConsoleState>>([
    securityHeaders(oauth ? [new URL(oauth.authorizeUrl).origin] : []),
    consoleErrors(deps.logger),
    loadSession({ db: deps.db, clock: deps.clock, policy: sessionPolicy(deps.config) }),
    guardWrites(),
    router.routes() as Koa.Middleware<ConsoleState>,
    router.allowedMethods({ throw: false }) as Koa.Middleware<ConsoleState>,
    async () => {
      throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such page.');
    },
  ]);
  return (ctx, next) => {
    if (ctx.path !== CONSOLE_PREFIX && !ctx.path.startsWith(`${CONSOLE_PREFIX}/`)) return next();
    return chain(ctx as Koa.ParameterizedContext<ConsoleState>);
  };
}
