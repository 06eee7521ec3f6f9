import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { clearRetryRequest, findRetryRequest, listRetryRequests } from '../../db/webhooks/retryRequests.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { OPERATION } from '../core/temporal/searchAttributes.js';
import { startOnce } from '../core/temporal/startOnce.js';
import { webhookDeliveryWorkflow, webhookDeliveryWorkflowId } from './ids.js';

type Deps = { db: Kysely<Database>; temporal: TemporalGateway };
type RetryRequest = { deliveryId: number; endpointId: number; eventId: string; attempts: number };

async function startRetryRound(deps: Deps, r: RetryRequest): Promise<void> {
  // The earlier round is closed; a round still running keeps going and this request waits for the next pass.
  await startOnce(
    deps.temporal,
    webhookDeliveryWorkflow,
    {
      workflowId: webhookDeliveryWorkflowId(r.endpointId, r.eventId),
      args: [{ deliveryId: r.deliveryId, firstAttempt: r.attempts + 1 }],
      typedSearchAttributes: [{ key: OPERATION, value: 'webhook.delivery' }],
      staticSummary: `Retry delivery ${r.deliveryId} of ${r.eventId} to endpoint ${r.endpointId}`,
    },
    { rerunClosed: true },
  );
  await clearRetryRequest(deps.db, r.deliveryId);
}

/** Starts another round of attempts for every delivery an operator asked to retry; returns how many. */
export async function relayDeliveryRetries(deps: Deps): Promise<number> {
  const requests = await listRetryRequests(deps.db, 100);
  for (const r of requests) await startRetryRound(deps, r);
  return requests.length;
}

/** Starts the retry just requested for one delivery (after its commit), instead of waiting for the relay's pass. */
export async function launchDeliveryRetry(deps: Deps, deliveryId: number): Promise<void> {
  const request = await findRetryRequest(deps.db, deliveryId);
  if (request) await startRetryRound(deps, request);
}

/** Rounds started by the request that queued them; the relay (100 a pass, every 2 s) starts the rest. */
export const RETRIES_STARTED_AT_ONCE = 20;

/** Starts the first of the retries just requested (a recovery), so a small one does not wait for the relay. */
export async function launchDeliveryRetries(deps: Deps, deliveryIds: number[]): Promise<void> {
  for (const id of deliveryIds.slice(0, RETRIES_STARTED_AT_ONCE)) await launchDeliveryRetry(deps, id);
}
