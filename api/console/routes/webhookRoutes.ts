import { ConsoleRefusal } from '../../../src/console/errors.js';
import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import { startFanoutsOrLeaveToRelay } from '../../../src/events/outbox.js';
import { addEndpoint, changeEndpointState, rotateEndpointSecret, sendTestEvent, WebhookManagementError } from '../../../src/webhooks/endpointManagement.js';
import { readEndpoint, readEndpoints } from '../../../src/webhooks/readEndpoints.js';
import type { AuditActor } from '../../../db/shared/audit.js';
import type { AppDeps } from '../../context.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { seeOther, sendPage } from '../render.js';
import { RemoveEndpointPage, SecretShownPage, WebhooksPage } from '../views/webhookPages.js';

/** Webhook endpoints: list, add (secret shown once), rotate the secret, disable / enable, send webhook.test, remove. */
export function webhookRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/webhooks';
  const management = (actor: AuditActor) => ({ db: deps.db, clock: deps.clock, actor, allowInsecureLocal: deps.config.webhooks.allowInsecureLocal });

  async function endpointOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    const id = idParam(ctx, 'endpointId');
    const endpoint = await readEndpoint(deps.db, server.guild.id, id);
    if (!endpoint) throw new WebhookManagementError('ENDPOINT_NOT_FOUND', `This server has no webhook endpoint ${id}.`);
    return { ...server, endpoint };
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    sendPage(ctx, WebhooksPage({ viewer, guild, endpoints: await readEndpoints(deps.db, guild.id), eventTypes: EVENT_TYPES }));
  });

  router.post(base, async (ctx) => {
    const { guild, viewer, actor } = await managedServer(ctx, deps);
    const form = formOf(ctx);
    const url = (form.get('url') ?? '').trim();
    if (!url) throw new ConsoleRefusal('INVALID_INPUT', 'Give the endpoint a URL.');
    const endpoint = await addEndpoint(management(actor), { guildId: guild.id, url, events: [...new Set(form.getAll('events'))] });
    sendPage(ctx, SecretShownPage({ viewer, guild, endpoint, secret: endpoint.secret, created: true }), 201);
  });

  router.post(`${base}/:endpointId/rotate-secret`, async (ctx) => {
    const { guild, viewer, actor, endpoint } = await endpointOf(ctx);
    const secret = await rotateEndpointSecret(management(actor), guild.id, endpoint.id);
    sendPage(ctx, SecretShownPage({ viewer, guild, endpoint, secret, created: false }));
  });

  for (const change of ['enable', 'disable', 'remove'] as const) {
    router.post(`${base}/:endpointId/${change}`, async (ctx) => {
      const { guild, actor, endpoint } = await endpointOf(ctx);
      await changeEndpointState(management(actor), guild.id, endpoint.id, change);
      seeOther(ctx, `/console/servers/${guild.id}/webhooks`);
    });
  }

  router.get(`${base}/:endpointId/remove`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx);
    sendPage(ctx, RemoveEndpointPage({ viewer, guild, endpoint }));
  });

  router.post(`${base}/:endpointId/test`, async (ctx) => {
    const { guild, actor, endpoint } = await endpointOf(ctx);
    const event = await sendTestEvent(management(actor), guild.id, endpoint.id);
    // Started at once after the commit; if Temporal cannot take it now, the worker's relay starts it within seconds.
    await startFanoutsOrLeaveToRelay({ db: deps.db, temporal: deps.temporal, clock: deps.clock, logger: deps.logger }, [event]);
    seeOther(ctx, `/console/servers/${guild.id}/webhooks/${endpoint.id}/deliveries`);
  });
}
