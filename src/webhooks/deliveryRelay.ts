import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { clearRetryRequest, listRetryRequests } from '../../db/webhooks/webhooks.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { OPERATION } from '../core/temporal/searchAttributes.js';
import { startOnce } from '../core/temporal/startOnce.js';
import { webhookDeliveryWorkflow, webhookDeliveryWorkflowId } from './ids.js';

/** Starts another round of attempts for every delivery an operator asked to retry; returns how many. */
export async function relayDeliveryRetries(deps: { db: Kysely<Database>; temporal: TemporalGateway }): Promise<number> {
  const requests = await listRetryRequests(deps.db, 100);
  for (const r of requests) {
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
  return requests.length;
}
