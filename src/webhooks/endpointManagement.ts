import type { Kysely } from 'kysely';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { Database } from '../../db/schema.js';
import { updateEndpointFields } from '../../db/webhooks/endpointChanges.js';
import {
  countEndpoints,
  findEndpoint,
  insertEndpoint,
  markEndpointRemoved,
  replaceEndpointSecret,
  setEndpointEnabled,
  type WebhookEndpoint,
} from '../../db/webhooks/webhooks.js';
import type { Clock } from '../core/clock.js';
import { PLAN_LIMITS, type Plan } from '../core/plans.js';
import { Refusal } from '../core/refusal.js';
import { EVENT_TYPES } from '../events/eventTypes.js';
import { refuseEndpointUrl } from './endpointUrl.js';
import { newWebhookSecret } from './signing.js';
import { SECRET_OVERLAPS, type SecretOverlap } from './signingSecrets.js';

export type WebhookManagementCode =
  | 'GUILD_NOT_FOUND'
  | 'ENDPOINT_LIMIT_REACHED'
  | 'INVALID_URL'
  | 'UNKNOWN_EVENT'
  | 'INVALID_DESCRIPTION'
  | 'ENDPOINT_NOT_FOUND'
  | 'ENDPOINT_DISABLED'
  | 'DELIVERY_NOT_RETRYABLE';

export class WebhookManagementError extends Refusal<WebhookManagementCode> {}

export interface WebhookManagementDeps {
  db: Kysely<Database>;
  clock: Clock;
  actor: AuditActor;
  allowInsecureLocal: boolean;
}

/** What an endpoint is asked to be: its URL, the event types it takes (none: all) and an optional description. */
export interface EndpointFields {
  url: string;
  events: string[];
  description?: string | null;
}

export const DESCRIPTION_MAX = 500;

/** The same checks for an added and an edited endpoint; returns the description as stored (blank: none). */
function checkFields(deps: WebhookManagementDeps, fields: EndpointFields): string | null {
  const refusal = refuseEndpointUrl(fields.url, { allowInsecureLocal: deps.allowInsecureLocal });
  if (refusal) throw new WebhookManagementError('INVALID_URL', `The URL ${refusal}.`);
  const unknown = fields.events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0) throw new WebhookManagementError('UNKNOWN_EVENT', `Unknown event type(s): ${unknown.join(', ')}. Known: ${EVENT_TYPES.join(', ')}.`);
  const description = fields.description?.trim() || null;
  if (description && description.length > DESCRIPTION_MAX) {
    throw new WebhookManagementError('INVALID_DESCRIPTION', `The description is at most ${DESCRIPTION_MAX} characters.`);
  }
  return description;
}

/** Registers an endpoint and returns it with its signing secret (shown once). */
export async function addEndpoint(deps: WebhookManagementDeps, input: EndpointFields & { guildId: string }): Promise<WebhookEndpoint & { secret: string }> {
  const description = checkFields(deps, input);
  return deps.db.transaction().execute(async (trx) => {
    // The guild row lock serialises registrations, so the plan limit cannot be overshot.
    const guild = await trx.selectFrom('guilds').select(['id', 'plan']).where('id', '=', input.guildId).forUpdate().executeTakeFirst();
    if (!guild) throw new WebhookManagementError('GUILD_NOT_FOUND', `Guild ${input.guildId} does not exist.`);
    const limit = PLAN_LIMITS[guild.plan as Plan].webhookEndpoints;
    if ((await countEndpoints(trx, guild.id)) >= limit) {
      throw new WebhookManagementError('ENDPOINT_LIMIT_REACHED', `Guild ${guild.id} already has ${limit} webhook endpoints, the most its ${guild.plan} plan allows.`);
    }
    const secret = newWebhookSecret();
    const endpoint = await insertEndpoint(trx, { guildId: guild.id, url: input.url, events: input.events, secret, description });
    await auditEndpoint(trx, deps.actor, endpoint, 'webhook.add', { url: endpoint.url, events: endpoint.events, description });
    return { ...endpoint, secret };
  });
}

/**
 * Changes an endpoint's URL, event types and description, checked as when it was added. Its id, secret, state and
 * deliveries stay: attempts still to come go to the new URL, and events committed from now on follow the new types.
 */
export async function updateEndpoint(deps: WebhookManagementDeps, input: EndpointFields & { guildId: string; id: number }): Promise<WebhookEndpoint> {
  const description = checkFields(deps, input);
  return deps.db.transaction().execute(async (trx) => {
    const before = await requireEndpoint(trx, input.guildId, input.id, { lock: true });
    const after = await updateEndpointFields(trx, before.id, { url: input.url, events: input.events, description });
    await auditEndpoint(trx, deps.actor, after, 'webhook.update', {
      before: { url: before.url, events: before.events, description: before.description },
      after: { url: after.url, events: after.events, description: after.description },
    });
    return after;
  });
}

export async function requireEndpoint(db: Kysely<Database>, guildId: string, id: number, options: { lock?: boolean } = {}): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(db, guildId, id, options);
  if (!endpoint) throw new WebhookManagementError('ENDPOINT_NOT_FOUND', `Guild ${guildId} has no webhook endpoint ${id}.`);
  return endpoint;
}

export const auditEndpoint = (db: Kysely<Database>, actor: AuditActor, endpoint: WebhookEndpoint, action: string, data: Record<string, unknown> = {}) =>
  writeAudit(db, { guildId: endpoint.guildId, actor, action, target: { type: 'webhook_endpoint', id: String(endpoint.id) }, data });

/**
 * A new secret signs every attempt from now on. With the overlap `now` the old one stops at once; with `24h` it
 * signs beside the new one for 24 hours (by the clock of the attempts), so receivers can switch without failing.
 */
export async function rotateEndpointSecret(
  deps: WebhookManagementDeps,
  guildId: string,
  id: number,
  overlap: SecretOverlap = 'now',
): Promise<{ secret: string; previousSecretExpiresAt: Date | null }> {
  return deps.db.transaction().execute(async (trx) => {
    const endpoint = await requireEndpoint(trx, guildId, id, { lock: true });
    const secret = newWebhookSecret();
    const previousSecretExpiresAt = overlap === 'now' ? null : new Date(deps.clock.now().getTime() + SECRET_OVERLAPS[overlap]);
    await replaceEndpointSecret(trx, id, secret, previousSecretExpiresAt);
    await auditEndpoint(trx, deps.actor, endpoint, 'webhook.rotateSecret', { overlap, previousSecretExpiresAt: previousSecretExpiresAt?.toISOString() ?? null });
    return { secret, previousSecretExpiresAt };
  });
}

export async function changeEndpointState(deps: WebhookManagementDeps, guildId: string, id: number, change: 'enable' | 'disable' | 'remove'): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const endpoint = await requireEndpoint(trx, guildId, id, { lock: true });
    if (change === 'remove') await markEndpointRemoved(trx, id, deps.clock.now());
    else await setEndpointEnabled(trx, id, change === 'enable', change === 'disable' ? 'manual' : null);
    await auditEndpoint(trx, deps.actor, endpoint, `webhook.${change}`);
  });
}
