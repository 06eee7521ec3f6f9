import type Router from '@koa/router';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { Feature } from '../src/core/features.js';
import type { Scope } from '../src/core/scopes.js';
import { invalidRequest, type ErrorCode, type IssueLocation, type ValidationIssue } from '../src/core/errors.js';
import type { AppDeps, AppMiddleware, Caller, RequestState } from './context.js';
import { runHandler } from './runHandler.js';
import { authenticate } from './middleware/authenticate.js';
import { featureGate } from './middleware/featureGate.js';
import { guildAccess } from './middleware/guildAccess.js';
import { jsonBody } from './middleware/jsonBody.js';
import { rateLimit } from './middleware/rateLimit.js';
import { requireScope } from './middleware/requireScope.js';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  caller: Caller;
  /** For writes, the request's transaction: the change, its audit row and its events commit together. */
  db: Kysely<Database>;
  /** Work to start once the transaction committed and the response is sent; a failure is logged, not answered. */
  afterCommit(hook: () => Promise<void>): void;
}

/**
 * One endpoint, described once: the router mounts it with its middleware and the OpenAPI document is
 * generated from the same object, so the two cannot drift apart.
 */
export interface RouteDefinition<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
> {
  method: 'get' | 'post' | 'patch';
  /** OpenAPI style, relative to /api/v1: `/guilds/{guildId}/roles`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  area: string;
  scope: Scope;
  /** Marked sensitive in the spec's scope table. */
  sensitive?: boolean;
  feature?: Feature;
  request: { params: P; query?: Q; body?: B };
  response: { status: 200 | 201 | 202; schema: z.ZodType; description: string };
  /** Codes this endpoint answers beyond the ones every endpoint shares (see api/openapi). */
  errors?: ErrorCode[];
  /** Accepts the Idempotency-Key header (spec: Endpoints). */
  idempotent?: boolean;
  /**
   * Checks that ask the platform (member exists, not a bot), run before a write's transaction opens so
   * no database connection is held while the platform answers.
   */
  check?(input: RouteInput<P, Q, B>): Promise<void>;
  handle(input: RouteInput<P, Q, B>): Promise<unknown>;
}

export function defineRoute<P extends AnyObject, Q extends AnyObject = z.ZodObject<{}>, B extends z.ZodType = z.ZodUndefined>(
  route: RouteDefinition<P, Q, B>,
): RouteDefinition {
  return route as unknown as RouteDefinition;
}

export const koaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Mounts each route behind the shared chain, in this order: key, rate limit, guild, scope, feature,
 * body, validation (docs/architecture.md explains why).
 */
export function mountRoutes(router: Router<RequestState>, routes: RouteDefinition[], deps: AppDeps): void {
  const { db, clock } = deps;
  const shared: AppMiddleware[] = [
    authenticate({ db, clock, keyHits: deps.keyHits, failuresPerMinute: deps.config.limits.authFailuresPerMinute }),
    rateLimit({ clock, perMinute: deps.config.limits.requestsPerMinute }),
    guildAccess(),
  ];
  for (const route of routes) {
    const chain: AppMiddleware[] = [...shared, requireScope(route.scope)];
    if (route.feature) chain.push(featureGate(route.feature));
    if (route.request.body) chain.push(jsonBody(deps.config.http.bodyLimitBytes));
    chain.push(async (ctx) => {
      const issues: ValidationIssue[] = [];
      const params = validate(route.request.params, ctx.params, 'path', issues);
      const query = validate(route.request.query, ctx.query, 'query', issues);
      const body = validate(route.request.body, ctx.state.body, 'body', issues);
      if (issues.length > 0) throw invalidRequest(issues);
      await runHandler(ctx, route, { params, query, body }, deps);
    });
    router.register(koaPath(route.path), [route.method.toUpperCase()], chain);
  }
}

function validate(schema: z.ZodType | undefined, value: unknown, location: IssueLocation, issues: ValidationIssue[]) {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    issues.push({ location, path: issue.path.map(String).join('.'), message: issue.message });
  }
  return undefined;
}
