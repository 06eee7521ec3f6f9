import type { Config } from '../src/core/config.js';
import { IDEMPOTENCY_HEADER } from './idempotency.js';
import type { RouteDefinition } from './route.js';

// The response headers of the OpenAPI document: rate limits, Retry-After, replays, request ids.

/** What the document says that is not in the routes: where they are mounted and the limits in force. */
export interface DocumentSettings {
  /** The routes' mount point, the document's server URL: its paths are relative to it (spec: `{base_url}`). */
  basePath: string;
  limits: Pick<Config['limits'], 'requestsPerMinute' | 'authFailuresPerMinute'>;
  bodyLimitBytes: number;
}

export const WINDOW = 'fixed one-minute windows aligned to the clock (hh:mm:00 to hh:mm:59 UTC)';
const integer = (minimum: number, maximum?: number) => ({ type: 'integer' as const, minimum, ...(maximum ? { maximum } : {}) });
const KNOWN_KEY_ONLY =
  'Sent on every response to a request whose API key was accepted, errors included; absent on 401, on 403 ' +
  'BROWSER_REQUESTS_NOT_ALLOWED, on the 429 of the address throttle and on a 503 answered before the key could be checked.';

/** Response headers, described once under components.headers and referenced by every response that carries them. */
export function responseHeaders(limits: DocumentSettings['limits']) {
  const { free, pro } = limits.requestsPerMinute;
  return {
    'X-RateLimit-Limit': {
      description: `Requests this API key may make per window: its plan's limit (${free} on Free, ${pro} on Pro), counted in ${WINDOW} across all instances. ${KNOWN_KEY_ONLY}`,
      schema: integer(1),
    },
    'X-RateLimit-Remaining': {
      description: `Requests left to this key in the current window, this one counted; 0 once the limit is reached. ${KNOWN_KEY_ONLY}`,
      schema: integer(0),
    },
    'X-RateLimit-Reset': {
      description: `Whole seconds until the current window ends and the count starts again (1 to 60): a duration, not a timestamp. ${KNOWN_KEY_ONLY}`,
      schema: integer(1, 60),
    },
    'Retry-After-RateLimited': {
      description:
        'Whole seconds until the current one-minute window ends (1 to 60): for the key\'s rate limit the same as X-RateLimit-Reset; ' +
        'also sent by the address throttle and the moderation action limit.',
      schema: integer(1, 60),
    },
    'Retry-After-Unavailable': {
      description:
        'Seconds to wait: 5 when a dependency (database, workflow engine, chat platform) cannot be reached; 60 when the chat ' +
        'platform refuses a read the request needs (the bot may lack a permission in the server); 1 when a request ' +
        'with the same Idempotency-Key is still being processed after 15 seconds.',
      schema: integer(1),
    },
    'Idempotent-Replayed': {
      description: `\`true\` when this is the stored response of an earlier request with the same ${IDEMPOTENCY_HEADER}; absent otherwise.`,
      schema: { type: 'string' as const, enum: ['true'] },
    },
    'WWW-Authenticate': { description: 'Always `Bearer realm="Service API"`.', schema: { type: 'string' as const } },
    'X-Request-Id': { description: 'Id of this request, on every response; quote it when reporting a problem.', schema: { type: 'string' as const } },
  };
}
type HeaderComponent = keyof ReturnType<typeof responseHeaders>;
const ref = (component: HeaderComponent) => ({ $ref: `#/components/headers/${component}` });
const RATE_HEADERS = {
  'X-RateLimit-Limit': ref('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('X-RateLimit-Reset'),
};
export const REQUEST_ID = { 'X-Request-Id': ref('X-Request-Id') };

export function successHeaders(route: RouteDefinition) {
  return { ...RATE_HEADERS, ...(route.idempotent ? { 'Idempotent-Replayed': ref('Idempotent-Replayed') } : {}), ...REQUEST_ID };
}

/** Headers of an error response by status: 401s carry no rate headers (no key is known). */
export function errorHeaders(status: number) {
  if (status === 401) return { 'WWW-Authenticate': ref('WWW-Authenticate'), ...REQUEST_ID };
  if (status === 429) return { ...RATE_HEADERS, 'Retry-After': ref('Retry-After-RateLimited'), ...REQUEST_ID };
  if (status === 503) return { ...RATE_HEADERS, 'Retry-After': ref('Retry-After-Unavailable'), ...REQUEST_ID };
  return { ...RATE_HEADERS, ...REQUEST_ID };
}
