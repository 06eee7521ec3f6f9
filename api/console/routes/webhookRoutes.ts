import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import { addEndpoint, changeEndpointState, updateEndpoint, WebhookManagementError } from '../../../src/webhooks/endpointManagement.js';
import { readEndpoint, readEndpointDetail, readEndpointOverview } from '../../../src/webhooks/readEndpoints.js';
import type { AuditActor } from '../../../db/shared/audit.js';
import type { AppDeps } from '../../context.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { seeOther, sendPage } from '../render.js';
import { EditEndpointPage, EndpointPage } from '../views/endpointPages.js';
import { SecretShownPage } from '../views/secretPages.js';
import { DisableEndpointPage, RemoveEndpointPage, WebhooksPage } from '../views/webhookPages.js';
import { endpointFieldsOf } from './endpointForm.js';

export const webhookManagement = (deps: AppDeps, actor: AuditActor) => ({ db: deps.db, clock: deps.clock, actor, allowInsecureLocal: deps.config.webhooks.allowInsecureLocal });

/** The signed-in manager's server and its live endpoint named in the path; ENDPOINT_NOT_FOUND (404) for any other. */
export async function endpointOf(ctx: ConsoleContext, deps: AppDeps) {
  const server = await managedServer(ctx, deps);
  const id = idParam(ctx, 'endpointId');
  const endpoint = await readEndpoint(deps.db, server.guild.id, id);
  if (!endpoint) throw new WebhookManagementError('ENDPOINT_NOT_FOUND', `This server has no webhook endpoint ${id}.`);
  return { ...server, endpoint };
}

/** Webhook endpoints: list with health, add (secret shown once), the endpoint's page, edit, disable / enable, remove. */
export function webhookRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/webhooks';
  const listPath = (guildId: string) => `/console/servers/${guildId}/webhooks`;

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const { endpoints, health } = await readEndpointOverview(deps.db, guild.id, deps.clock.now());
    sendPage(ctx, WebhooksPage({ viewer, guild, endpoints, health, eventTypes: EVENT_TYPES }));
  });

  router.post(base, async (ctx) => {
    const { guild, viewer, actor } = await managedServer(ctx, deps);
    const endpoint = await addEndpoint(webhookManagement(deps, actor), { guildId: guild.id, ...endpointFieldsOf(formOf(ctx)) });
    sendPage(ctx, SecretShownPage({ viewer, guild, endpoint, secret: endpoint.secret, created: true, previousUntil: null }), 201);
  });

  router.get(`${base}/:endpointId`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const id = idParam(ctx, 'endpointId');
    const now = deps.clock.now();
    const detail = await readEndpointDetail(deps.db, guild.id, id, now);
    if (!detail) throw new WebhookManagementError('ENDPOINT_NOT_FOUND', `This server has no webhook endpoint ${id}.`);
    sendPage(ctx, EndpointPage({ viewer, guild, ...detail, now }));
  });

  router.get(`${base}/:endpointId/edit`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    const values = { url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events };
    sendPage(ctx, EditEndpointPage({ viewer, guild, endpoint, values, eventTypes: EVENT_TYPES }));
  });

  router.post(`${base}/:endpointId/edit`, async (ctx) => {
    const { guild, actor, endpoint } = await endpointOf(ctx, deps);
    await updateEndpoint(webhookManagement(deps, actor), { guildId: guild.id, id: endpoint.id, ...endpointFieldsOf(formOf(ctx)) });
    seeOther(ctx, `${listPath(guild.id)}/${endpoint.id}`);
  });

  for (const change of ['enable', 'disable', 'remove'] as const) {
    router.post(`${base}/:endpointId/${change}`, async (ctx) => {
      const { guild, actor, endpoint } = await endpointOf(ctx, deps);
      await changeEndpointState(webhookManagement(deps, actor), guild.id, endpoint.id, change);
      seeOther(ctx, listPath(guild.id));
    });
  }

  // Disabling loses the events raised meanwhile and removing loses the endpoint: both ask first.
  router.get(`${base}/:endpointId/disable`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    sendPage(ctx, DisableEndpointPage({ viewer, guild, endpoint }));
  });

  router.get(`${base}/:endpointId/remove`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    sendPage(ctx, RemoveEndpointPage({ viewer, guild, endpoint }));
  });
}
