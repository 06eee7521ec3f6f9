import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ErrorBody } from '../src/core/contract.js';
import { EVENT_DATA_SCHEMAS, eventEnvelope } from '../src/events/contract.js';
import { z } from '../src/core/zod.js';
import { ERROR_STATUS, type ErrorCode } from '../src/core/errorCodes.js';
import type { RouteDefinition } from './route.js';

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

const intHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });
const RATE_HEADERS = {
  'X-RateLimit-Limit': intHeader("Requests allowed per one-minute window for this key's plan."),
  'X-RateLimit-Remaining': intHeader('Requests left in the current window.'),
  'X-RateLimit-Reset': intHeader('Seconds until the current fixed one-minute window ends.'),
};
const RETRY_AFTER = { 'Retry-After': intHeader('Seconds to wait before retrying.') };
const REQUEST_ID = { 'X-Request-Id': { description: 'Id of this request, also written in the logs.', schema: { type: 'string' as const } } };

/** All the error codes a route can answer, grouped by HTTP status. */
export function errorCodesOf(route: RouteDefinition): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>([...SHARED_ERRORS, ...(route.errors ?? [])]);
  if (route.request.body) BODY_ERRORS.forEach((c) => codes.add(c));
  if (route.feature) codes.add(route.feature === 'bank' ? 'BANK_DISABLED' : 'FEATURE_DISABLED');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

export function buildOpenApiDocument(routes: RouteDefinition[]) {
  const registry = new OpenAPIRegistry();
  registry.register('Error', ErrorBody);
  const bearer = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A per-server API key: `Authorization: Bearer svc_...`. Each operation lists the one scope it needs.',
  });

  for (const route of routes) {
    const responses: Record<string, object> = {
      [route.response.status]: {
        description: route.response.description,
        headers: { ...RATE_HEADERS, ...REQUEST_ID },
        content: { 'application/json': { schema: route.response.schema } },
      },
    };
    for (const [status, codes] of errorCodesOf(route)) {
      const retry = status === 429 || status === 503 ? RETRY_AFTER : {};
      const auth = status === 401 ? { 'WWW-Authenticate': { description: 'Bearer realm="Service API"', schema: { type: 'string' } } } : {};
      responses[status] = {
        description: `Error codes: ${codes.join(', ')}.`,
        // 401s carry no rate headers (no key is known); the 429 of the address throttle carries none either.
        headers: { ...(status === 401 ? {} : RATE_HEADERS), ...retry, ...auth, ...REQUEST_ID },
        content: { 'application/json': { schema: ErrorBody.extend({ error: z.enum(codes as [ErrorCode, ...ErrorCode[]]) }) } },
      };
    }
    registry.registerPath({
      method: route.method,
      path: `/api/v1${route.path}`,
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: [route.area],
      security: [{ [bearer.name]: [route.scope] }],
      'x-required-scope': route.scope,
      'x-sensitive': route.sensitive ?? false,
      request: {
        params: route.request.params,
        query: route.request.query,
        body: route.request.body && { required: true, content: { 'application/json': { schema: route.request.body } } },
      },
      responses,
    } as Parameters<typeof registry.registerPath>[0]);
  }

  registerDocumentItself(registry);
  registerWebhooks(registry);

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Community-Bot Management API',
      version: '1.0.0',
      description:
        'Server-to-server REST API of the community bot for one chat-platform server. Rate limits use fixed one-minute windows; see docs/api-decisions.md.',
    },
    servers: [{ url: '/' }],
  });
}

/** The one route served without a key, so the document lists every route the app serves. */
function registerDocumentItself(registry: OpenAPIRegistry) {
  registry.registerPath({
    method: 'get',
    path: '/api/v1/openapi.json',
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
      description: 'Signed POST to a registered endpoint. Answer 2xx within 10 s; anything else is retried after 1 min, 5 min, 30 min, 2 h, 6 h and 24 h.',
      tags: ['webhooks'],
      request: {
        headers: SIGNATURE_HEADERS,
        body: { content: { 'application/json': { schema: eventEnvelope(type).openapi(`${name}Event`) } } },
      },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery.' } },
    });
  }
}
