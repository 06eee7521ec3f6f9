import { insertTestEvent } from '../../db/webhooks/testEvents.js';
import { EVENT_TYPES, type EventType, type OutboxEvent } from '../events/eventTypes.js';
import { auditEndpoint, requireEndpoint, WebhookManagementError, type WebhookManagementDeps } from './endpointManagement.js';
import { exampleEventData } from './exampleEvents.js';

const TEST_MESSAGE = 'This is a test event sent by an operator.';

/**
 * Queues a test event for one endpoint, whatever types it subscribes to, audit-logged in the same transaction: a
 * `webhook.test`, or an example of another type (its documented `data` with example values). The caller starts its
 * fan-out after the commit (the worker's relay does it within seconds otherwise).
 *
 * A disabled endpoint is refused (ENDPOINT_DISABLED) rather than sent to: nothing reaches a disabled endpoint, the
 * events raised meanwhile included, so a test that arrived would say something untrue about it.
 */
export async function sendTestEvent(deps: WebhookManagementDeps, guildId: string, id: number, type: string = 'webhook.test'): Promise<OutboxEvent> {
  if (!(EVENT_TYPES as readonly string[]).includes(type)) throw new WebhookManagementError('UNKNOWN_EVENT', `Unknown event type: ${type}. Known: ${EVENT_TYPES.join(', ')}.`);
  return deps.db.transaction().execute(async (trx) => {
    const endpoint = await requireEndpoint(trx, guildId, id, { lock: true });
    if (!endpoint.enabled) {
      throw new WebhookManagementError('ENDPOINT_DISABLED', `The endpoint ${endpoint.url} is disabled: enable it first. Events raised while it is disabled are never delivered.`);
    }
    const at = deps.clock.now();
    const test = { endpointId: endpoint.id, message: TEST_MESSAGE };
    const event = await insertTestEvent(trx, {
      guildId,
      endpointId: endpoint.id,
      createdAt: at,
      data: type === 'webhook.test' ? test : { ...test, exampleType: type },
      delivered: { type, data: exampleEventData(type as EventType, at, endpoint.id) },
    });
    await auditEndpoint(trx, deps.actor, endpoint, 'webhook.test', { eventId: event.id, type });
    return event as OutboxEvent;
  });
}
