import { context, propagation, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** The baggage entry that carries an api request's id along its trace (api, workflow start, activities). */
export const REQUEST_ID_BAGGAGE = 'request.id';

/**
 * Structured JSON logs; the redact list keeps secrets out even when a header object is logged whole. When tracing is
 * on, every line written inside a traced operation names its trace and span, and the api request it serves. Lines go
 * to stdout unless a destination is given (tests read them).
 */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    mixin: traceFields,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'apiKey', 'secret', '*.apiKey', '*.secret'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

// Without a registered tracer provider (tracing off) there is no active span and this adds nothing.
function traceFields(): Record<string, string> {
  const active = context.active();
  const span = trace.getSpan(active)?.spanContext();
  if (!span || !trace.isSpanContextValid(span)) return {};
  const requestId = propagation.getBaggage(active)?.getEntry(REQUEST_ID_BAGGAGE)?.value;
  return { traceId: span.traceId, spanId: span.spanId, ...(requestId ? { requestId } : {}) };
}
