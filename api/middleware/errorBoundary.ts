import { randomUUID } from 'node:crypto';
import { AppError, internalError, platformRefusedRead, serviceUnavailable } from '../../src/core/errors.js';
import { context, propagation, trace } from '@opentelemetry/api';
import { getRPCMetadata } from '@opentelemetry/core';
import { REQUEST_ID_BAGGAGE, type Logger } from '../../src/core/logger.js';
import { isDatabaseTimeout, isDependencyUnavailable, isPlatformRefusal } from '../../src/core/dependencyErrors.js';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import type { AppMiddleware } from '../context.js';
import { redactedPath } from '../../src/flows/webhookPath.js';

/**
 * Mounted first: gives every request an id and is the only place an error becomes a response
 * (`{error, message, ...extra}`). A dependency that cannot answer, or a platform that refuses what a request needs, answers
 * 503 with Retry-After (docs/api-decisions.md); other unexpected errors answer 500 without their message; the log keeps it.
 */
export function errorBoundary(logger: Logger): AppMiddleware {
  return async (ctx, next) => {
    ctx.state.requestId = randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    const started = performance.now();
    try {
      await withRequestId(ctx.state.requestId, next);
    } catch (err) {
      const appError = toAppError(err, ctx.state.requestId);
      // A client that hung up mid-request (reading its body fails with ECONNRESET) is not our failure. Its socket tells:
      // the request stream itself is destroyed once its body has been read, hung up or not.
      if (ctx.req.socket.destroyed) {
        logger.debug({ requestId: ctx.state.requestId, method: ctx.method, path: redactedPath(ctx.path) }, 'client closed the connection');
      } else if (appError.status >= 500) {
        logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: redactedPath(ctx.path) }, 'request failed');
      }
      ctx.status = appError.status;
      ctx.set(appError.headers);
      ctx.body = { error: appError.code, message: appError.message, ...appError.extra };
    }
    // Checked first: the line's fields cost the hot path even when pino drops it.
    if (logger.isLevelEnabled('debug')) {
      logger.debug({ requestId: ctx.state.requestId, method: ctx.method, path: redactedPath(ctx.path), status: ctx.status, ms: Math.round(performance.now() - started) }, 'request answered');
    }
  };
}

// When tracing is on, the request id rides the trace as baggage (to the workflow's activities and their log lines)
// and names the request's server span, the root an operator searches by; when it is off, the context is the root
// one and this changes nothing.
function withRequestId<T>(requestId: string, next: () => Promise<T>): Promise<T> {
  const active = context.active();
  const span = getRPCMetadata(active)?.span ?? trace.getSpan(active);
  if (!span) return next();
  span.setAttribute('http.request.id', requestId);
  const baggage = (propagation.getBaggage(active) ?? propagation.createBaggage()).setEntry(REQUEST_ID_BAGGAGE, { value: requestId });
  return context.with(propagation.setBaggage(active, baggage), next);
}

function toAppError(err: unknown, requestId: string): AppError {
  if (err instanceof AppError) return err;
  // A rate-limit stop of the platform says how long: clients wait that long rather than the default.
  if (err instanceof PlatformUnavailableError && err.retryAfterSeconds !== undefined) return serviceUnavailable(err.retryAfterSeconds);
  if (isDependencyUnavailable(err) || isDatabaseTimeout(err)) return serviceUnavailable();
  if (isPlatformRefusal(err)) return platformRefusedRead();
  return internalError(requestId);
}
