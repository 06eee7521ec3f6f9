import type Koa from 'koa';
import { CONSOLE_REFUSAL_STATUS, ConsoleRefusal } from '../../src/console/errors.js';
import { isDatabaseTimeout, isDependencyUnavailable } from '../../src/core/dependencyErrors.js';
import { AppError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/logger.js';
import { Refusal } from '../../src/core/refusal.js';
import type { ConsoleState } from './consoleState.js';
import { sendPage } from './render.js';
import { ErrorPage } from './views/messagePages.js';

/** The status of a use case's refusal (key and webhook management), by what its code says. */
function refusalStatus(code: string): number {
  if (code.endsWith('_NOT_FOUND')) return 404;
  if (code === 'INVALID_URL' || code === 'UNKNOWN_EVENT') return 422;
  return 409;
}

function describe(err: unknown, requestId: string): { status: number; code: string; message: string; headers?: Record<string, string> } {
  if (err instanceof ConsoleRefusal) return { status: CONSOLE_REFUSAL_STATUS[err.code], code: err.code, message: err.message };
  if (err instanceof Refusal) return { status: refusalStatus(err.code), code: err.code, message: err.message };
  if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message, headers: err.headers };
  if (isDependencyUnavailable(err) || isDatabaseTimeout(err)) return { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'A service the console needs is unavailable; try again in a moment.', headers: { 'Retry-After': '5' } };
  return { status: 500, code: 'INTERNAL_ERROR', message: `Something went wrong (request ${requestId}).` };
}

/** The console's error boundary: every refusal or failure becomes an HTML page with its status and code. */
export function consoleErrors(logger: Logger): Koa.Middleware<ConsoleState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const d = describe(err, ctx.state.requestId);
      if (d.status >= 500) logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'console request failed');
      if (d.headers) ctx.set(d.headers);
      sendPage(ctx, ErrorPage({ status: d.status, code: d.code, message: d.message, viewer: ctx.state.viewer }), d.status);
    }
  };
}
