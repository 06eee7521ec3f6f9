import type { IdempotencyClaim } from '../db/shared/idempotency.js';
import { idempotencyReplays } from '../src/core/metrics.js';
import { claimOrReplay } from '../src/requests/idempotency.js';
import type { AppContext, AppDeps } from './context.js';
import { IDEMPOTENCY_HEADER, readIdempotencyKey, requestFingerprint } from './idempotency.js';
import type { RouteDefinition } from './route.js';
import { respondSettled, sendJsonText } from './responses.js';

/**
 * The Idempotency-Key step of a route that takes one: without a key nothing; with a new key its claim, which the
 * write stores its response under; with a key already answered the stored answer, sent here (and `settle`d again
 * when the route settles), so the request is done (`replayed`).
 */
export async function claimIdempotencyKey(
  ctx: AppContext,
  route: RouteDefinition,
  body: unknown,
  apiKeyId: number,
  deps: AppDeps,
  settle: ((stored: unknown) => Promise<{ status: number; body: unknown }>) | undefined,
): Promise<{ replayed: true } | { replayed: false; claim: IdempotencyClaim | undefined }> {
  // From the raw header lines: ctx.get() answers '' for a missing header and for an empty one alike.
  const key = readIdempotencyKey(ctx.req.headersDistinct[IDEMPOTENCY_HEADER.toLowerCase()]);
  if (key === undefined) return { replayed: false, claim: undefined };
  const outcome = await claimOrReplay(deps, { apiKeyId, key, fingerprint: requestFingerprint(ctx.method, ctx.path, body) });
  if (outcome.kind !== 'replay') return { replayed: false, claim: outcome.claim };
  if (settle) respondSettled(ctx, route, await settle(JSON.parse(outcome.body)), deps);
  else {
    ctx.status = outcome.status;
    sendJsonText(ctx, outcome.body);
  }
  ctx.set('Idempotent-Replayed', 'true');
  idempotencyReplays.inc();
  return { replayed: true };
}
