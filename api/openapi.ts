import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ErrorBody } from '../src/core/contract.js';
import type { Config } from '../src/core/config.js';
import { EVENT_DATA_SCHEMAS, eventEnvelope } from '../src/events/contract.js';
import { z } from '../src/core/zod.js';
import { ERROR_STATUS, type ErrorCode } from '../src/core/errorCodes.js';
import { IDEMPOTENCY_HEADER } from './idempotency.js';
import type { RouteDefinition } from './route.js';

/** What the document says that is not in the routes: where they are mounted and the limits in force. */
export interface DocumentSettings {
  /** The routes' mount point, the document's server URL: its paths are relative to it (spec: `{base_url}`). */
  basePath: string;
  limits: Pick<Config['limits'], 'requestsPerMinute' | 'authFailuresPerMinute'>;
  bodyLimitBytes: number;
}

/** Codes every authenticated endpoint can answer, whatever it does. */
const SHARED_ERRORS: ErrorCode[] = [
  'INVALID_REQUEST',
  'UNAUTHORIZED',
  'INVALID_API_KEY',
  'API_KEY_REVOKED',
  'API_KEY_EXPIRED',
  'BROWSER_REQUESTS_NOT_ALLOWED',
  'GUILD_MISMATCH',
  'INSUFFICIENT_SCOPE',
  'GUILD_BLOCKED',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];
const BODY_ERRORS: ErrorCode[] = ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/** One tag per area (the route's `area`). An area missing here gets a bare description, and test/api/http/openapi.test.ts fails. */
export const AREA_TAGS: Record<string, string> = {
  guild: 'The server as the bot sees it: settings, roles, channels, members.',
  bank: "Balances and ledgers of the server's currency (feature Bank: 409 BANK_DISABLED while it is off).",
  levels: 'Levels and XP: a member on the level curve, the leaderboard, asynchronous XP changes (feature Levels).',
  invites: 'Invite counts, ranks and bonus invites (feature Invites and Rewards).',
  shop: 'Stores, items, inventories and purchases (feature Shop).',
  giveaways: 'Giveaways, their entrants and winners (feature Giveaways).',
  flows: 'Manual and webhook-triggered flows and their runs (feature Flows).',
  tickets: 'Support tickets and their transcripts (feature Tickets).',
  applications: 'Application forms, submissions and decisions (feature Applications).',
  appeals: 'Ban appeals: read them, approve (unban) or reject them (feature Ban appeals).',
  moderation:
    "Moderation cases, and asynchronous actions (warn, time out, kick, ban, unban) taken in the name of the key's creator " +
    '(feature Moderation; every scope of it is sensitive).',
};
const OTHER_TAGS = {
  meta: 'This description of the API.',
  webhooks:
    'Events the service POSTs to the HTTPS endpoints registered in the web console; the `webhooks` section lists one per ' +
    'event kind. Each delivery is signed: `Service-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>` ' +
    'with `Service-Webhook-Timestamp` as the timestamp. Verify over the raw body, refuse timestamps more than 5 minutes ' +
    'from your clock, compare in constant time with each `v1=` value. Deduplicate on the event `id` (the same on every ' +
    'retry) and order by `createdAt`.',
};
const tagDescription = (area: string) => AREA_TAGS[area] ?? `Endpoints of the ${area} area.`;

const WINDOW = 'fixed one-minute windows aligned to the clock (hh:mm:00 to hh:mm:59 UTC)';
const integer = (minimum: number, maximum?: number) => ({ type: 'integer' as const, minimum, ...(maximum ? { maximum } : {}) });
const KNOWN_KEY_ONLY =
  'Sent on every response to a request whose API key was accepted, errors included; absent on 401, on 403 ' +
  'BROWSER_REQUESTS_NOT_ALLOWED, on the 429 of the address throttle and on a 503 answered before the key could be checked.';

/** Response headers, described once under components.headers and referenced by every response that carries them. */
function responseHeaders(limits: DocumentSettings['limits']) {
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
        'Seconds to wait: 5 when a dependency (database, workflow engine, chat platform) cannot be reached; 1 when a request ' +
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
const REQUEST_ID = { 'X-Request-Id': ref('X-Request-Id') };

function successHeaders(route: RouteDefinition) {
  return { ...RATE_HEADERS, ...(route.idempotent ? { 'Idempotent-Replayed': ref('Idempotent-Replayed') } : {}), ...REQUEST_ID };
}

/** Headers of an error response by status: 401s carry no rate headers (no key is known). */
function errorHeaders(status: number) {
  if (status === 401) return { 'WWW-Authenticate': ref('WWW-Authenticate'), ...REQUEST_ID };
  if (status === 429) return { ...RATE_HEADERS, 'Retry-After': ref('Retry-After-RateLimited'), ...REQUEST_ID };
  if (status === 503) return { ...RATE_HEADERS, 'Retry-After': ref('Retry-After-Unavailable'), ...REQUEST_ID };
  return { ...RATE_HEADERS, ...REQUEST_ID };
}

const IdempotencyKey = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\x20-\x7e]{1,100}$/)
  .optional()
  .openapi({
    param: {
      name: IDEMPOTENCY_HEADER,
      in: 'header',
      description:
        'Optional; 1 to 100 printable ASCII characters, chosen by the client (a UUID is fine). A successful response is ' +
        'stored 24 hours per API key: repeating the key with the same request (method, path, body as canonical JSON) returns ' +
        'the stored status and body with `Idempotent-Replayed: true` and changes nothing; the same key with a different ' +
        'request answers 422 IDEMPOTENCY_KEY_REUSED. Failed responses are not stored. A request whose twin is still running ' +
        'waits for it (up to 15 s, then 503 with `Retry-After: 1`). Without the header a retry is a new change.',
    },
    example: '5a0f6f9e-8b1c-4d61-9a2e-2f4f7d1c0b3a',
  });

/** All the error codes a route can answer, grouped by HTTP status. */
export function errorCodesOf(route: RouteDefinition): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>([...SHARED_ERRORS, ...(route.errors ?? [])]);
  if (route.request.body) BODY_ERRORS.forEach((c) => codes.add(c));
  if (route.feature) codes.add(route.feature === 'bank' ? 'BANK_DISABLED' : 'FEATURE_DISABLED');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** A body whose schema accepts no value at all (`.optional()`): the request may be sent without one. */
const bodyIsOptional = (route: RouteDefinition) => route.request.body?.safeParse(undefined).success ?? false;

function operationDescription(route: RouteDefinition): string {
  const notes = [
    `Scope: \`${route.scope}\`${route.sensitive ? ' (sensitive)' : ''}.`,
    route.idempotent ? `Accepts \`${IDEMPOTENCY_HEADER}\`.` : '',
    bodyIsOptional(route) ? 'The body is optional: without one, every field takes its default.' : '',
  ];
  return [route.description, notes.filter(Boolean).join(' ')].filter(Boolean).join('\n\n');
}

export function buildOpenApiDocument(routes: RouteDefinition[], settings: DocumentSettings) {
  const registry = new OpenAPIRegistry();
  registry.register('Error', ErrorBody);
  for (const [name, header] of Object.entries(responseHeaders(settings.limits))) registry.registerComponent('headers', name, header);
  const idempotencyKey = registry.registerParameter('IdempotencyKey', IdempotencyKey);
  const bearer = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description:
      "A per-server API key: `Authorization: Bearer svc_...`. Each operation lists the one scope the key needs as the " +
      'role of its security requirement (OpenAPI 3.1) and in `x-required-scope`.',
  });

  for (const route of routes) {
    const responses: Record<string, object> = {
      [route.response.status]: {
        description: route.response.description,
        headers: successHeaders(route),
        content: { 'application/json': { schema: route.response.schema } },
      },
    };
    for (const [status, codes] of errorCodesOf(route)) {
      responses[status] = {
        description: `Error codes: ${codes.join(', ')}.`,
        headers: errorHeaders(status),
        content: { 'application/json': { schema: ErrorBody.extend({ error: z.enum(codes as [ErrorCode, ...ErrorCode[]]) }) } },
      };
    }
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: operationDescription(route),
      tags: [route.area],
      security: [{ [bearer.name]: [route.scope] }],
      'x-required-scope': route.scope,
      'x-sensitive': route.sensitive ?? false,
      request: {
        params: route.request.params,
        query: route.request.query,
        headers: route.idempotent ? [idempotencyKey] : undefined,
        body: route.request.body && {
          required: !bodyIsOptional(route),
          content: { 'application/json': { schema: route.request.body } },
        },
      },
      responses,
    } as Parameters<typeof registry.registerPath>[0]);
  }

  registerDocumentItself(registry);
  registerWebhooks(registry);

  const areas = [...new Set(routes.map((r) => r.area))];
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Community-Bot Management API', version: '1.0.0', description: apiDescription(settings) },
    servers: [{ url: settings.basePath, description: 'This host; the paths below are relative to it.' }],
    tags: [
      ...areas.map((name) => ({ name, description: tagDescription(name) })),
      ...Object.entries(OTHER_TAGS)
        .filter(([name]) => !areas.includes(name))
        .map(([name, description]) => ({ name, description })),
    ],
  });
}

/** The one route served without a key, so the document lists every route the app serves. */
function registerDocumentItself(registry: OpenAPIRegistry) {
  registry.registerPath({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    description: 'Served without authentication, and also to browsers (the Origin rule does not apply).',
    tags: ['meta'],
    security: [],
    responses: {
      200: {
        description: 'The OpenAPI 3.1 description of the API.',
        headers: REQUEST_ID,
        content: { 'application/json': { schema: z.object({}).passthrough().openapi({ description: 'An OpenAPI 3.1 document.' }) } },
      },
    },
  });
}

const SIGNATURE_HEADERS = z.object({
  'Service-Webhook-Id': z.string().openapi({ description: 'The event id, the same on every retry.' }),
  'Service-Webhook-Timestamp': z.string().openapi({ description: 'Unix seconds when this attempt was signed.' }),
  'Service-Signature': z.string().openapi({ description: 'v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>; may hold several v1= values.' }),
});

/** One OpenAPI webhook per event kind (3.1 `webhooks`), with its versioned data schema. */
function registerWebhooks(registry: OpenAPIRegistry) {
  for (const type of Object.keys(EVENT_DATA_SCHEMAS) as Array<keyof typeof EVENT_DATA_SCHEMAS>) {
    const name = type.replace(/(^|\.)(\w)/g, (_, _dot: string, c: string) => c.toUpperCase());
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `on${name}`,
      summary: `${type} event`,
      description:
        'Signed POST to a registered endpoint. Answer 2xx within 10 s; anything else is retried after 1 min, 5 min, 30 min, ' +
        '2 h, 6 h and 24 h (7 attempts in all). Authenticated by its signature headers, not by a security scheme.',
      tags: ['webhooks'],
      // The service calls the receiver: no credential of a security scheme is sent, the signature headers prove the origin.
      security: [],
      request: {
        headers: SIGNATURE_HEADERS,
        body: { required: true, content: { 'application/json': { schema: eventEnvelope(type).openapi(`${name}Event`) } } },
      },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery.' } },
    });
  }
}

/** info.description: what a client needs that no single operation says (rate limits, idempotency, errors, rules). */
function apiDescription({ limits, bodyLimitBytes }: DocumentSettings): string {
  const { free, pro } = limits.requestsPerMinute;
  return `Server-to-server REST API of the community bot, for one chat-platform server per API key. The paths are relative to the server URL, which ends in \`/api/v1\`; this document is served without a key at \`{base_url}/openapi.json\`.

**Authentication.** Every request carries \`Authorization: Bearer <API key>\` (\`svc_\` + 43 characters, created in the web console with its scopes). Each operation names the one scope it needs (\`x-required-scope\`; \`x-sensitive\` marks sensitive scopes). Any request with an \`Origin\` header is refused with 403 BROWSER_REQUESTS_NOT_ALLOWED: call the API from a server, not a browser.

**Rate limits.** Per API key, in ${WINDOW}, shared by all instances: ${free} requests per window on Free, ${pro} on Pro; requests over the limit count too. Responses carry \`X-RateLimit-Limit\` (the plan's limit), \`X-RateLimit-Remaining\` (left in this window, this request counted) and \`X-RateLimit-Reset\` (whole seconds until the window ends, 1 to 60). Over the limit: 429 RATE_LIMITED with \`Retry-After\` in seconds. Moderation actions have a per-key limit of their own (see those operations). More than ${limits.authFailuresPerMinute} failed authentications (401) per minute from one IP address: further failures from it get 429 until the minute ends, while requests with a valid key go on (their own limit applies). 503 SERVICE_UNAVAILABLE carries \`Retry-After\` too. Retry 429, 500, 503 and timeouts, after \`Retry-After\` seconds when present, with the same Idempotency-Key.

**Idempotency.** Writes that declare the \`Idempotency-Key\` header accept it: the first successful response is stored 24 hours per key and replayed (with \`Idempotent-Replayed: true\`) for the same request; a different request under the same key answers 422 IDEMPOTENCY_KEY_REUSED.

**Asynchronous writes.** XP changes, moderation actions and appeal decisions answer 202 at once; poll the returned id (or read the appeal) for the outcome.

**Errors.** Body \`{error, message}\` plus, for some codes, \`issues\` (INVALID_REQUEST: \`{location, path, message}\` items), \`required\` (INSUFFICIENT_SCOPE), \`balance\` (INSUFFICIENT_FUNDS), \`maxBalance\` (BALANCE_LIMIT), \`limit\` (PAYLOAD_TOO_LARGE), \`status\` (APPEAL_NOT_OPEN), \`requestId\` (INTERNAL_ERROR). Every response has \`X-Request-Id\`. Checks run in this order: route (404 NOT_FOUND, 405 METHOD_NOT_ALLOWED), Origin, address throttle, key (401), key rate limit (429), server (400 INVALID_REQUEST for a malformed \`{guildId}\`, 403 GUILD_MISMATCH, GUILD_BLOCKED), scope (403), feature (409), body (415, 413, 400 INVALID_JSON), validation (400 INVALID_REQUEST), then the endpoint.

**Requests.** Bodies are JSON in UTF-8 (\`Content-Type: application/json\`), at most ${bodyLimitBytes} bytes. Unknown body fields are refused; unknown query parameters are ignored. Paths match case-insensitively, with or without a trailing slash.

**Compatibility.** Within v1 fields may be added to responses and webhook payloads, never removed or retyped: ignore fields you do not know. Responses never contain fields this document does not list.`;
}
