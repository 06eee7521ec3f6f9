import { AsyncResource } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { launchOperation } from '../src/core/temporal/operation.js';
import type { OutboxEvent } from '../src/events/eventTypes.js';
import { startFanouts } from '../src/events/outbox.js';
import type { IdempotencyClaim } from '../db/shared/idempotency.js';
import { claimOrReplay, releaseIdempotencyClaim, storeIdempotentResponse } from '../src/requests/idempotency.js';
import type { AppContext, AppDeps, Caller } from './context.js';
import { IDEMPOTENCY_HEADER, readIdempotencyKey, requestFingerprint } from './idempotency.js';
import type { RouteDefinition, RouteInput } from './route.js';
import { responseCheckFor } from './responseCheck.js';

/** Parsed params, query and body, as the route's schemas output them. */
export interface ValidInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Runs a validated request: reads in the pool, writes in one transaction that also stores the
 * Idempotency-Key response. After-commit hooks run once the response is sent: they only speed up work
 * that the outbox relay would otherwise start a few seconds later, so the caller does not wait for them.
 */
export async function runHandler(ctx: AppContext, route: RouteDefinition, input: ValidInput, deps: AppDeps): Promise<void> {
  const { apiKey, guild, requestId } = ctx.state;
  const caller = { apiKey: apiKey!, guild: guild!, requestId };
  const status = route.response.status;

  const hooks: Array<() => Promise<void>> = [];
  const handlerInput = (db: Kysely<Database>, checked?: unknown) => new HandlerInput(input, caller, db, deps, hooks, checked) as never;
  const settle = route.settle && ((stored: unknown) => route.settle!(stored, handlerInput(deps.db)));

  let claim: IdempotencyClaim | undefined;
  // From the raw header lines: ctx.get() answers '' for a missing header and for an empty one alike.
  const key = route.idempotent ? readIdempotencyKey(ctx.req.headersDistinct[IDEMPOTENCY_HEADER.toLowerCase()]) : undefined;
  if (key !== undefined) {
    const outcome = await claimOrReplay(deps, {
      apiKeyId: caller.apiKey.id,
      key,
      fingerprint: requestFingerprint(ctx.method, ctx.path, input.body),
    });
    if (outcome.kind === 'replay') {
      if (settle) respondSettled(ctx, route, await settle(JSON.parse(outcome.body)), deps);
      else {
        ctx.status = outcome.status;
        sendJsonText(ctx, outcome.body);
      }
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    claim = outcome.claim;
  }

  let body: unknown;
  // With an Idempotency-Key the body is serialized here, once: the stored text is the text sent, so a replay
  // returns the same bytes (not merely the same JSON value).
  let bodyText: string | undefined;
  try {
    const checked = await route.check?.(handlerInput(deps.db));
    // The documented schema is what leaves (and what a replay returns): unknown fields are stripped, and
    // a handler returning something else fails loudly (500) instead of drifting from the OpenAPI document
    // (api/responseCheck.ts: the whole schema in tests and development, a compiled shape check in production).
    const respond = responseCheckFor(route.response.schema, deps.config.http.responseCheck);
    body =
      route.method === 'get'
        ? respond(await route.handle(handlerInput(deps.db, checked)))
        : await deps.db.transaction().execute(async (trx) => {
            const result = respond(await route.handle(handlerInput(trx, checked)));
            if (claim) {
              bodyText = JSON.stringify(result);
              await storeIdempotentResponse(trx, claim, { status, body: bodyText });
            }
            return result;
          });
  } catch (err) {
    if (claim) await releaseIdempotencyClaim(deps.db, claim).catch(() => {});
    throw err;
  }
  if (settle) respondSettled(ctx, route, await settle(body), deps);
  else {
    ctx.status = status;
    if (bodyText === undefined) ctx.body = body;
    else sendJsonText(ctx, bodyText);
  }
  if (hooks.length > 0) {
    // Bound to the request's async context: a listener on the response otherwise runs in the one the tracing
    // bound the response to, which lacks what the request added (its request id, carried to the workflow).
    ctx.res.once(
      'finish',
      AsyncResource.bind(() => {
        for (const hook of hooks) {
          hook().catch((err: unknown) => deps.logger.warn({ err, requestId }, 'after-commit work failed; the relay retries it'));
        }
      }),
    );
  }
}

/**
 * What a handler is handed. The write helpers are getters on the prototype, made when a handler asks for them:
 * a read, most requests, makes none of their closures.
 */
class HandlerInput {
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;

  constructor(
    input: ValidInput,
    readonly caller: Caller,
    readonly db: Kysely<Database>,
    private readonly deps: AppDeps,
    private readonly hooks: Array<() => Promise<void>>,
    readonly checked: unknown,
  ) {
    ({ params: this.params, query: this.query, body: this.body } = input);
  }

  get afterCommit(): RouteInput<never, never, never>['afterCommit'] {
    const { hooks } = this;
    return (hook) => void hooks.push(hook);
  }

  get launch(): RouteInput<never, never, never>['launch'] {
    const { hooks, deps, caller } = this;
    return (operation, record) => void hooks.push(() => launchOperation(deps, operation, record, caller.apiKey.name));
  }

  get publish(): RouteInput<never, never, never>['publish'] {
    const { hooks, deps } = this;
    return (events: OutboxEvent[]) => void hooks.push(() => startFanouts(deps, events));
  }
}

/** A settled answer, parsed by the documented schema like any other. */
function respondSettled(ctx: AppContext, route: RouteDefinition, settled: { status: number; body: unknown }, deps: AppDeps): void {
  ctx.status = settled.status;
  ctx.body = responseCheckFor(route.response.schema, deps.config.http.responseCheck)(settled.body);
}

/** Sends JSON text as it is (Koa would otherwise send a string as text/plain). */
function sendJsonText(ctx: AppContext, text: string): void {
  ctx.type = 'application/json';
  ctx.body = text;
}
