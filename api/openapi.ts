import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ErrorBody } from '../src/core/contract.js';
import { EVENT_DATA_SCHEMAS, eventEnvelope } from '../src/events/contract.js';
import { z } from '../src/core/zod.js';
import { ERROR_STATUS, type ErrorCode } from '../src/core/errorCodes.js';
import { IDEMPOTENCY_HEADER } from './idempotency.js';
import { apiDescription } from './openapiDescription.js';
import { errorHeaders, REQUEST_ID, responseHeaders, successHeaders, type DocumentSettings } from './openapiHeaders.js';
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
    'from your clock, compare in constant time with each `v1=` value (during a secret rotation with an overlap there are ' +
    'two, one per secret). Deduplicate on the event `id` (the same on every retry) and order by `createdAt`.',
};
const tagDescription = (area: string) => AREA_TAGS[area] ?? `Endpoints of the ${area} area.`;

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
    for (const other of route.otherResponses ?? []) {
      responses[other.status] = { ...responses[route.response.status], description: other.description };
    }
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
