import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { IdempotencyClaim } from '../db/shared/idempotency.js';
import { releaseIdempotencyClaim, storeIdempotentResponse } from '../src/requests/idempotency.js';
import type { AppContext, AppDeps } from './context.js';
import { HandlerInput, runAfterResponse, type AfterCommitHooks, type ValidInput } from './handlerInput.js';
import { claimIdempotencyKey } from './idempotentRequest.js';
import type { RouteDefinition } from './route.js';
import { documentedBody, respondSettled, sendJsonText } from './responses.js';

/**
 * Runs a validated request: the Idempotency-Key claim or replay (api/idempotentRequest.ts), `check` in the pool,
 * then reads in the pool and writes in one transaction that also stores the Idempotency-Key response, the answer
 * (settled when the route settles), and the after-commit hooks once it is sent (api/handlerInput.ts): they only
 * speed up work that the outbox relay would otherwise start a few seconds later, so the caller does not wait.
 */
export async function runHandler(ctx: AppContext, route: RouteDefinition, input: ValidInput, deps: AppDeps): Promise<void> {
  const { apiKey, guild, requestId } = ctx.state;
  const caller = { apiKey: apiKey!, guild: guild!, requestId };
  const status = route.response.status;

  const hooks: AfterCommitHooks = [];
  const handlerInput = (db: Kysely<Database>, checked?: unknown) => new HandlerInput(input, caller, db, deps, hooks, checked) as never;
  const settle = route.settle && ((stored: unknown) => route.settle!(stored, handlerInput(deps.db)));

  // Reads take no Idempotency-Key: they skip the step (and its promise) altogether.
  let claim: IdempotencyClaim | undefined;
  if (route.idempotent) {
    const idempotency = await claimIdempotencyKey(ctx, route, input.body, caller.apiKey.id, deps, settle);
    if (idempotency.replayed) return;
    claim = idempotency.claim;
  }

  let body: unknown;
  // With an Idempotency-Key the body is serialized here, once: the stored text is the text sent, so a replay
  // returns the same bytes (not merely the same JSON value).
  let bodyText: string | undefined;
  try {
    const checked = await route.check?.(handlerInput(deps.db));
    const respond = documentedBody(route, deps);
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
  runAfterResponse(ctx, hooks, deps, requestId);
}
