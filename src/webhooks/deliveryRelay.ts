import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { clearRetryRequest, listRetryRequests } from '../../db/webhooks/webhooks.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { OPERATION } from '../core/temporal/searchAttributes.js';
import { webhookDeliveryWorkflowId } from './delivery.js';

/** Starts another round of attempts for every delivery an operator asked to retry; returns how many. */
export async function relayDeliveryRetries(deps: { db: Kysely<Database>; temporal: TemporalGateway }): Promise<number> {
  const requests = await listRetryRequests(deps.db, 100);
  for (const r of requests) {
    const attempts = await deps.db.selectFrom('webhook_deliveries').select('attempts').where('id', '=', r.id).executeTakeFirstOrThrow();
    await deps.temporal.client.workflow.start('webhookDelivery', {
      workflowId: webhookDeliveryWorkflowId(r.endpoint_id, r.event_id),
      taskQueue: deps.temporal.taskQueue,
      args: [{ deliveryId: r.id, firstAttempt: attempts.attempts + 1 }],
      // The earlier round is closed; a round still running keeps going and this request waits for the next pass.
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      typedSearchAttributes: [{ key: OPERATION, value: 'webhook.delivery' }],
      staticSummary: `Retry delivery ${r.id} of ${r.event_id} to endpoint ${r.endpoint_id}`,
    });
    await clearRetryRequest(deps.db, r.id);
  }
  return requests.length;
}
