import type Koa from 'koa';
import { CONSOLE_REFUSAL_STATUS, ConsoleRefusal } from '../../src/console/errors.js';
import { isDatabaseTimeout, isDependencyUnavailable } from '../../src/core/dependencyErrors.js';
import { AppError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/logger.js';
import { Refusal } from '../../src/core/refusal.js';
import type { ConsoleState } from './consoleState.js';
import { FormRejection } from './formFlow.js';
import { sendPage } from './render.js';
import { ErrorPage } from './views/messagePages.js';

/** The status of a use case's refusal (key and webhook management), by what its code says. */
function refusalStatus(code: string): number {
  if (code.endsWith('_NOT_FOUND')) return 404;
  if (code === 'INVALID_URL' || code === 'UNKNOWN_EVENT' || code === 'INVALID_DESCRIPTION') return 422;
  return 409;
}

function describe(err: unknown, requestId: string): { status: number; code: string; message: string; headers?: Record<string, string> } {
  // A form's problem reaches here only from a route that renders no form again: the error page says it instead.
  if (err instanceof FormRejection) return { status: err.status, code: err.code, message: err.message };
  if (err instanceof ConsoleRefusal) return { status: CONSOLE_REFUSAL_STATUS[err.code], code: err.code, message: err.message };
  if (err instanceof Refusal) return { status: refusalStatus(err.code), code: err.code, message: err.message };
  if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message, headers: err.headers };
  if (isDependencyUnavailable(err) || isDatabaseTimeout(err)) return { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'A service the console needs is unavailable; try again in a moment.', headers: { 'Retry-After': '5' } };
  return { status: 500, code: 'INTERNAL_ERROR', message: `Something went wrong (request ${requestId}).` };
}

/**
 * The refusals an operator wants to see (ASVS 16.3.1/16.3.2): a failed sign-in, too many sign-ins from an address,
 * a request for a server the user does not manage, a forged or stale form, a form from another origin. Others (a
 * page that does not exist, a form with a wrong field) are the visitor's business.
 */
const LOGGED_REFUSALS = new Set(['SIGN_IN_FAILED', 'RATE_LIMITED', 'NOT_A_SERVER_MANAGER', 'CSRF_TOKEN_INVALID', 'CROSS_ORIGIN_REQUEST']);

/**
 * The console's error boundary: every refusal or failure becomes an HTML page with its status and code. Refusals
 * worth an operator's eye are logged at warn with the user (when signed in) and the client address; the path is
 * logged, never the query (the OAuth2 callback's code and state).
 */
export function consoleErrors(logger: Logger): Koa.Middleware<ConsoleState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const d = describe(err, ctx.state.requestId);
      if (d.status >= 500) logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'console request failed');
      else if (LOGGED_REFUSALS.has(d.code)) {
        const who = { userId: ctx.state.session?.userId, clientAddress: ctx.ip };
        logger.warn({ code: d.code, reason: d.message, ...who, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'console request refused');
      }
      if (d.headers) ctx.set(d.headers);
      sendPage(ctx, ErrorPage({ status: d.status, code: d.code, message: d.message, viewer: ctx.state.viewer }), d.status);
    }
  };
}
