import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { OutboxEvent } from '../src/events/eventTypes.js';
import type { Operation } from '../src/core/temporal/operation.js';
import type { Workflow } from '../src/core/temporal/workflowRef.js';
import type { Feature } from '../src/core/features.js';
import type { Scope } from '../src/core/scopes.js';
import type { ErrorCode } from '../src/core/errors.js';
import type { Caller } from './context.js';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, C = unknown> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  caller: Caller;
  /** What `check` found (undefined in `check` itself and in `settle`). */
  checked: C;
  /** For writes, the request's transaction: the change, its audit row and its events commit together. */
  db: Kysely<Database>;
  /** Work to start once the transaction committed and the response is sent; a failure is logged, not answered. */
  afterCommit(hook: () => Promise<void>): void;
  /** Starts the operation's workflow after the commit; the start relay covers a start that is lost. */
  launch<R, W extends Workflow>(operation: Operation<R, W, Kysely<Database>>, record: R): void;
  /** Starts the fan-out of events the transaction wrote once it committed; the start relay covers a lost start. */
  publish(events: OutboxEvent[]): void;
}

/**
 * One endpoint, described once: the router mounts it with its middleware and the OpenAPI document is
 * generated from the same object, so the two cannot drift apart.
 */
export interface RouteDefinition<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
  C = unknown,
> {
  method: 'get' | 'post' | 'patch';
  /** OpenAPI style, relative to /api/v1: `/guilds/{guildId}/roles`. */
  path: string;
  operationId: string;
  summary: string;
  /** What a caller needs beyond the summary. Every product route has one (test/contract lints the document). */
  description?: string;
  /** The area's name, also the operation's one OpenAPI tag (described in api/openapi.ts). */
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
   * Checks and lookups that ask the platform (member exists, not a bot, the server's owner), run before a write's
   * transaction opens so no database connection is held while the platform answers; what it returns reaches
   * `handle` as `checked`.
   */
  check?(input: RouteInput<P, Q, B>): Promise<C>;
  /**
   * After the commit and before the answer (and on an Idempotency-Key replay, from the stored body): may answer
   * another documented status and body, for example a flow run waited on until it ends. No transaction is open.
   */
  settle?(stored: unknown, input: RouteInput<P, Q, B, C | undefined>): Promise<{ status: 200 | 201 | 202; body: unknown }>;
  /** The other success statuses `settle` may answer, documented with the response's schema. */
  otherResponses?: Array<{ status: 200 | 201 | 202; description: string }>;
  handle(input: RouteInput<P, Q, B, C>): Promise<unknown>;
}

export function defineRoute<P extends AnyObject, Q extends AnyObject = z.ZodObject<{}>, B extends z.ZodType = z.ZodUndefined, C = void>(
  route: RouteDefinition<P, Q, B, C>,
): RouteDefinition {
  return route as unknown as RouteDefinition;
}
