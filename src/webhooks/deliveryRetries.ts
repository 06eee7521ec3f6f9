import { writeAudit } from '../../db/shared/audit.js';
import { requestDeliveryRetry, requestRecovery } from '../../db/webhooks/retryRequests.js';
import { auditEndpoint, requireEndpoint, WebhookManagementError, type WebhookManagementDeps } from './endpointManagement.js';

const refuseDisabled = (url: string) =>
  new WebhookManagementError('ENDPOINT_DISABLED', `The endpoint ${url} is disabled: enable it first, or its attempts would be cancelled at once.`);

/**
 * Another round of up to 7 attempts for a finished delivery of this guild's endpoint, audit-logged: a failed or
 * cancelled one, or a delivered one (a resend: the receiver gets the same event id again and deduplicates on it).
 */
export async function retryDelivery(deps: WebhookManagementDeps, guildId: string, deliveryId: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const owned = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(['d.id', 'd.event_id', 'd.status', 'e.id as endpoint_id', 'e.url', 'e.enabled'])
      .where('d.id', '=', deliveryId)
      .where('e.guild_id', '=', guildId)
      .executeTakeFirst();
    if (owned && !owned.enabled) throw refuseDisabled(owned.url);
    if (!owned || !(await requestDeliveryRetry(trx, deliveryId, deps.clock.now()))) {
      throw new WebhookManagementError('DELIVERY_NOT_RETRYABLE', `Guild ${guildId} has no finished delivery ${deliveryId}: a pending one is still being attempted.`);
    }
    await writeAudit(trx, {
      guildId,
      actor: deps.actor,
      action: 'webhook.retryDelivery',
      target: { type: 'webhook_delivery', id: String(deliveryId) },
      data: { endpointId: owned.endpoint_id, eventId: owned.event_id, previousStatus: owned.status },
    });
  });
}

/**
 * "Recover everything that failed since": one more round for each delivery to the endpoint created at or after
 * `since` that failed or was cancelled, audit-logged once with their number. Returns the deliveries queued; the
 * caller starts their rounds after the commit (the worker's relay starts any it did not).
 */
export async function recoverFailedDeliveries(deps: WebhookManagementDeps, guildId: string, endpointId: number, since: Date): Promise<number[]> {
  return deps.db.transaction().execute(async (trx) => {
    const endpoint = await requireEndpoint(trx, guildId, endpointId, { lock: true });
    if (!endpoint.enabled) throw refuseDisabled(endpoint.url);
    const ids = await requestRecovery(trx, endpoint.id, since, deps.clock.now());
    await auditEndpoint(trx, deps.actor, endpoint, 'webhook.recover', { since: since.toISOString(), deliveries: ids.length });
    return ids;
  });
}
