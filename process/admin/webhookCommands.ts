import { findEndpoint, listDeliveries, listEndpoints, type WebhookEndpoint } from '../../db/webhooks/webhooks.js';
import { EVENT_TYPES } from '../../src/events/eventTypes.js';
import { retryDelivery } from '../../src/webhooks/deliveryRetries.js';
import { addEndpoint, changeEndpointState, rotateEndpointSecret } from '../../src/webhooks/endpointManagement.js';
import { SECRET_OVERLAPS, type SecretOverlap } from '../../src/webhooks/signingSecrets.js';
import { sendTestEvent } from '../../src/webhooks/testEvents.js';
import { oneOf, optional, snowflake, type FlagSpec } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminContext, type CommandGroup } from './command.js';
import { usageError } from './errors.js';
import { isoOrNull, table } from './output.js';
import { requireGuild } from './requireGuild.js';

const ENDPOINT_FLAGS = {
  ...GUILD_FLAG,
  id: { type: 'string', placeholder: 'ENDPOINT_ID', required: true, help: 'the endpoint id (see `webhook list`)' },
  ...OPERATOR_FLAG,
} as const satisfies FlagSpec;

function positiveId(value: string, flag: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) throw usageError('INVALID_ARGUMENT', `--${flag} must be a positive integer, got "${value}".`);
  return id;
}

const deps = (ctx: AdminContext, operator: string | undefined) => ({
  db: ctx.db,
  clock: ctx.clock,
  actor: operatorActor(ctx, operator),
  allowInsecureLocal: ctx.allowInsecureWebhookUrls,
});

const view = (e: WebhookEndpoint) => ({
  id: e.id,
  url: e.url,
  events: e.events.length ? e.events : 'all',
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  failingSince: isoOrNull(e.failingSince),
  createdAt: e.createdAt.toISOString(),
});

const stateCommand = (name: 'enable' | 'disable' | 'remove', summary: string, done: string) =>
  defineCommand({
    name,
    summary,
    flags: ENDPOINT_FLAGS,
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const id = positiveId(flags.id, 'id');
      await changeEndpointState(deps(ctx, flags.operator), guildId, id, name);
      return { json: { id, done: name }, text: [`Webhook endpoint ${id} ${done}.`] };
    },
  });

/** Webhook endpoints of a guild and their deliveries (the console's API section, for operators). */
export const webhookGroup: CommandGroup = {
  name: 'webhook',
  summary: 'webhook endpoints and deliveries',
  commands: [
    defineCommand({
      name: 'add',
      summary: 'register an endpoint; prints its signing secret once',
      flags: {
        ...GUILD_FLAG,
        url: { type: 'string', placeholder: 'URL', required: true, help: 'public https:// URL (also http://127.0.0.1:PORT/... on the dev database)' },
        events: { type: 'string', placeholder: 'all|a,b', required: true, help: `event types: all or some of ${EVENT_TYPES.join(', ')}` },
        ...OPERATOR_FLAG,
      },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const events = flags.events.trim() === 'all' ? [] : [...new Set(flags.events.split(',').map((e) => e.trim()).filter(Boolean))];
        const endpoint = await addEndpoint(deps(ctx, flags.operator), { guildId, url: flags.url, events });
        return {
          json: { ...view(endpoint), secret: endpoint.secret },
          text: [
            `Registered webhook endpoint ${endpoint.id} for guild ${guildId}.`,
            `  url      ${endpoint.url}`,
            `  events   ${endpoint.events.join(', ') || 'all'}`,
            `  secret   ${endpoint.secret}`,
            'The secret is shown only now; the receiver verifies signatures with it.',
          ],
        };
      },
    }),
    defineCommand({
      name: 'list',
      summary: 'list the endpoints of a guild',
      flags: GUILD_FLAG,
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        await requireGuild(ctx.db, guildId);
        const items = (await listEndpoints(ctx.db, guildId)).map(view);
        return {
          json: { items },
          text: table([
            ['ID', 'STATE', 'EVENTS', 'URL'],
            ...items.map((e) => [String(e.id), e.enabled ? 'enabled' : `disabled (${e.disabledReason})`, String(e.events), e.url]),
          ]),
        };
      },
    }),
    defineCommand({
      name: 'show',
      summary: 'show one endpoint',
      flags: { ...GUILD_FLAG, id: ENDPOINT_FLAGS.id },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const id = positiveId(flags.id, 'id');
        const endpoint = await findEndpoint(ctx.db, guildId, id);
        if (!endpoint) throw usageError('ENDPOINT_NOT_FOUND', `Guild ${guildId} has no webhook endpoint ${id}.`);
        const v = view(endpoint);
        return { json: v, text: Object.entries(v).map(([k, value]) => `${k.padEnd(15)} ${String(value)}`) };
      },
    }),
    stateCommand('enable', 'enable an endpoint (also after it was disabled for failing)', 'is enabled'),
    stateCommand('disable', 'stop sending to an endpoint; its outstanding deliveries stop', 'is disabled'),
    stateCommand('remove', 'remove an endpoint', 'is removed'),
    defineCommand({
      name: 'rotate-secret',
      summary: 'replace the signing secret; the old one stops signing at once, or after 24 hours with --overlap 24h',
      flags: {
        ...ENDPOINT_FLAGS,
        overlap: { type: 'string', placeholder: 'now|24h', help: 'how long the old secret keeps signing beside the new one (default now)' },
      },
      async run(flags, ctx) {
        const id = positiveId(flags.id, 'id');
        const overlap: SecretOverlap = optional(flags.overlap, (v) => oneOf(v, 'overlap', Object.keys(SECRET_OVERLAPS) as SecretOverlap[])) ?? 'now';
        const { secret, previousSecretExpiresAt } = await rotateEndpointSecret(deps(ctx, flags.operator), snowflake(flags.guild, 'guild'), id, overlap);
        const until = previousSecretExpiresAt ? `The old secret also signs until ${previousSecretExpiresAt.toISOString()}.` : 'The old secret stopped signing.';
        return { json: { id, secret, previousSecretExpiresAt: isoOrNull(previousSecretExpiresAt) }, text: [`New signing secret of endpoint ${id}: ${secret}`, 'It is shown only now.', until] };
      },
    }),
    defineCommand({
      name: 'test',
      summary: 'send a webhook.test event to an endpoint',
      flags: ENDPOINT_FLAGS,
      async run(flags, ctx) {
        const id = positiveId(flags.id, 'id');
        const { id: eventId } = await sendTestEvent(deps(ctx, flags.operator), snowflake(flags.guild, 'guild'), id);
        return { json: { id, eventId }, text: [`Queued webhook.test ${eventId} for endpoint ${id}; see \`webhook deliveries\`.`] };
      },
    }),
    defineCommand({
      name: 'deliveries',
      summary: "list an endpoint's latest deliveries with their attempts",
      flags: {
        ...GUILD_FLAG,
        endpoint: { type: 'string', placeholder: 'ENDPOINT_ID', required: true, help: 'the endpoint id' },
        status: { type: 'string', placeholder: 'STATUS', help: 'pending, succeeded, failed or cancelled' },
      },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const endpointId = positiveId(flags.endpoint, 'endpoint');
        if (!(await findEndpoint(ctx.db, guildId, endpointId))) {
          throw usageError('ENDPOINT_NOT_FOUND', `Guild ${guildId} has no webhook endpoint ${endpointId}.`);
        }
        const status = optional(flags.status, (v) => oneOf(v, 'status', ['pending', 'succeeded', 'failed', 'cancelled'] as const));
        const items = (await listDeliveries(ctx.db, endpointId, status)).map((d) => ({
          id: d.id,
          eventId: d.event_id,
          status: d.status,
          attempts: d.attemptLog.map((a) => ({
            attempt: a.attempt,
            at: a.attempted_at.toISOString(),
            durationMs: a.duration_ms,
            statusCode: a.status_code,
            error: a.error,
            response: a.response_excerpt,
          })),
        }));
        return {
          json: { items },
          text: table([
            ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST'],
            ...items.map((d) => {
              const last = d.attempts.at(-1);
              return [String(d.id), d.eventId, d.status, String(d.attempts.length), last ? `${last.statusCode ?? last.error}` : '-'];
            }),
          ]),
        };
      },
    }),
    defineCommand({
      name: 'retry',
      summary: 'retry a failed delivery or resend a delivered one (another round of up to 7 attempts)',
      flags: { ...GUILD_FLAG, delivery: { type: 'string', placeholder: 'DELIVERY_ID', required: true, help: 'the delivery id' }, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const deliveryId = positiveId(flags.delivery, 'delivery');
        await retryDelivery(deps(ctx, flags.operator), snowflake(flags.guild, 'guild'), deliveryId);
        return { json: { deliveryId, retrying: true }, text: [`Delivery ${deliveryId} will be retried within seconds.`] };
      },
    }),
  ],
};
