import type { Kysely } from 'kysely';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { recordEvent } from '../events/outbox.js';
import type { Database } from '../../db/schema.js';
import {
  countEndpoints,
  findEndpoint,
  insertEndpoint,
  markEndpointRemoved,
  replaceEndpointSecret,
  requestDeliveryRetry,
  setEndpointEnabled,
  type WebhookEndpoint,
} from '../../db/webhooks/webhooks.js';
import type { Clock } from '../core/clock.js';
import { PLAN_LIMITS, type Plan } from '../core/plans.js';
import { EVENT_TYPES, type OutboxEvent } from '../events/eventTypes.js';
import { refuseEndpointUrl } from './endpointUrl.js';
import { newWebhookSecret } from './signing.js';
import { Refusal } from '../core/refusal.js';

export class WebhookManagementError extends Refusal<'GUILD_NOT_FOUND' | 'ENDPOINT_LIMIT_REACHED' | 'INVALID_URL' | 'UNKNOWN_EVENT' | 'ENDPOINT_NOT_FOUND' | 'DELIVERY_NOT_RETRYABLE'> {}

interface Deps {
  db: Kysely<Database>;
  clock: Clock;
  actor: AuditActor;
  allowInsecureLocal: boolean;
}

/** Registers an endpoint and returns it with its signing secret (shown once). */
export async function addEndpoint(deps: Deps, input: { guildId: string; url: string; events: string[] }): Promise<WebhookEndpoint & { secret: string }> {
  const refusal = refuseEndpointUrl(input.url, { allowInsecureLocal: deps.allowInsecureLocal });
  if (refusal) throw new WebhookManagementError('INVALID_URL', `The URL ${refusal}.`);
  const unknown = input.events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0) throw new WebhookManagementError('UNKNOWN_EVENT', `Unknown event type(s): ${unknown.join(', ')}. Known: ${EVENT_TYPES.join(', ')}.`);
  return deps.db.transaction().execute(async (trx) => {
    // The guild row lock serialises registrations, so the plan limit cannot be overshot.
    const guild = await trx.selectFrom('guilds').select(['id', 'plan']).where('id', '=', input.guildId).forUpdate().executeTakeFirst();
    if (!guild) throw new WebhookManagementError('GUILD_NOT_FOUND', `Guild ${input.guildId} does not exist.`);
    const limit = PLAN_LIMITS[guild.plan as Plan].webhookEndpoints;
    if ((await countEndpoints(trx, guild.id)) >= limit) {
      throw new WebhookManagementError('ENDPOINT_LIMIT_REACHED', `Guild ${guild.id} already has ${limit} webhook endpoints, the most its ${guild.plan} plan allows.`);
    }
    const secret = newWebhookSecret();
    const endpoint = await insertEndpoint(trx, { guildId: guild.id, url: input.url, events: input.events, secret });
    await audit(trx, deps.actor, endpoint, 'webhook.add', { url: endpoint.url, events: endpoint.events });
    return { ...endpoint, secret };
  });
}

async function requireEndpoint(db: Kysely<Database>, guildId: string, id: number): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(db, guildId, id);
  if (!endpoint) throw new WebhookManagementError('ENDPOINT_NOT_FOUND', `Guild ${guildId} has no webhook endpoint ${id}.`);
  return endpoint;
}

const audit = (db: Kysely<Database>, actor: AuditActor, endpoint: WebhookEndpoint, action: string, data: Record<string, unknown> = {}) =>
  writeAudit(db, { guildId: endpoint.guildId, actor, action, target: { type: 'webhook_endpoint', id: String(endpoint.id) }, data });

/** A new secret signs every attempt from now on; the old one stops at once. */
export async function rotateEndpointSecret(deps: Deps, guildId: string, id: number): Promise<string> {
  return deps.db.transaction().execute(async (trx) => {
    const endpoint = await requireEndpoint(trx, guildId, id);
    const secret = newWebhookSecret();
    await replaceEndpointSecret(trx, id, secret);
    await audit(trx, deps.actor, endpoint, 'webhook.rotateSecret');
    return secret;
  });
}

export async function changeEndpointState(deps: Deps, guildId: string, id: number, change: 'enable' | 'disable' | 'remove'): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const endpoint = await requireEndpoint(trx, guildId, id);
    if (change === 'remove') await markEndpointRemoved(trx, id, deps.clock.now());
    else await setEndpointEnabled(trx, id, change === 'enable', change === 'disable' ? 'manual' : null);
    await audit(trx, deps.actor, endpoint, `webhook.${change}`);
  });
}

/**
 * Queues a webhook.test event for one endpoint, audit-logged in the same transaction; the caller starts its fan-out
 * after the commit (the worker's relay does it within seconds otherwise).
 */
export async function sendTestEvent(deps: Deps, guildId: string, id: number): Promise<OutboxEvent<'webhook.test'>> {
  return deps.db.transaction().execute(async (trx) => {
    const endpoint = await requireEndpoint(trx, guildId, id);
    const event = await recordEvent(trx, {
      type: 'webhook.test',
      guildId,
      createdAt: deps.clock.now(),
      data: { endpointId: endpoint.id, message: 'This is a test event sent by an operator.' },
    });
    await audit(trx, deps.actor, endpoint, 'webhook.test', { eventId: event.id });
    return event;
  });
}

/** Another round of up to 7 attempts for a failed (or cancelled) delivery of this guild's endpoint, audit-logged. */
export async function retryDelivery(deps: Deps, guildId: string, deliveryId: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const owned = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(['d.id', 'd.event_id', 'e.id as endpoint_id'])
      .where('d.id', '=', deliveryId)
      .where('e.guild_id', '=', guildId)
      .executeTakeFirst();
    if (!owned || !(await requestDeliveryRetry(trx, deliveryId, deps.clock.now()))) {
      throw new WebhookManagementError('DELIVERY_NOT_RETRYABLE', `Guild ${guildId} has no failed or cancelled delivery ${deliveryId}.`);
    }
    await writeAudit(trx, {
      guildId,
      actor: deps.actor,
      action: 'webhook.retryDelivery',
      target: { type: 'webhook_delivery', id: String(deliveryId) },
      data: { endpointId: owned.endpoint_id, eventId: owned.event_id },
    });
  });
}
