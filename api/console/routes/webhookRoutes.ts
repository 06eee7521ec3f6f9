import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import { addEndpoint, changeEndpointState, updateEndpoint, WebhookManagementError } from '../../../src/webhooks/endpointManagement.js';
import { readEndpoint, readEndpointDetail, readEndpointOverview } from '../../../src/webhooks/readEndpoints.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { AuditActor } from '../../../db/shared/audit.js';
import type { AppDeps } from '../../context.js';
import { idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { formPost, showOnceAt, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { endpointValuesOf } from '../views/endpointForm.js';
import { EditEndpointPage, EndpointPage } from '../views/endpointPages.js';
import type { FormProblem } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';
import { DisableEndpointPage, RemoveEndpointPage, WebhooksPage } from '../views/webhookPages.js';
import { endpointFieldsOf, onTheEndpointForm } from './endpointForm.js';

export const webhookManagement = (deps: AppDeps, actor: AuditActor) => ({ db: deps.db, clock: deps.clock, actor, allowInsecureLocal: deps.config.webhooks.allowInsecureLocal });

/** The signed-in manager's server and its live endpoint named in the path; ENDPOINT_NOT_FOUND (404) for any other. */
export async function endpointOf(ctx: ConsoleContext, deps: AppDeps) {
  const server = await managedServer(ctx, deps);
  const id = idParam(ctx, 'endpointId');
  const endpoint = await readEndpoint(deps.db, server.guild.id, id);
  if (!endpoint) throw new WebhookManagementError('ENDPOINT_NOT_FOUND', `This server has no webhook endpoint ${id}.`);
  return { ...server, endpoint };
}

/** The result page of an add or a rotation: the POST answers 303 here, with the secret kept for one read. */
export const secretPage = (guildId: string, endpointId: number) => `/console/servers/${guildId}/webhooks/${endpointId}/secret`;

/** Webhook endpoints: list with health, add (secret shown once), the endpoint's page, edit, disable / enable, remove. */
export function webhookRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/webhooks';
  const listPath = (guildId: string) => `/console/servers/${guildId}/webhooks`;

  async function sendWebhooksPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, form?: { values: URLSearchParams; problem: FormProblem }) {
    const { endpoints, health } = await readEndpointOverview(deps.db, guild.id, deps.clock.now());
    const sent = form && { values: endpointValuesOf(form.values), problem: form.problem };
    sendPage(ctx, WebhooksPage({ viewer, guild, endpoints, health, eventTypes: EVENT_TYPES, form: sent }), form?.problem.status);
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    await sendWebhooksPage(ctx, guild, viewer);
  });

  formPost(router, deps, base, {
    server: (ctx) => managedServer(ctx, deps),
    change: async ({ guild, actor }, form, ctx) => {
      const endpoint = await addEndpoint(webhookManagement(deps, actor), { guildId: guild.id, ...endpointFieldsOf(form) }).catch(onTheEndpointForm);
      return showOnceAt(ctx, deps, secretPage(guild.id, endpoint.id), { secret: endpoint.secret, created: true, previousUntil: null });
    },
    rejected: ({ guild, viewer }, form, problem, ctx) => sendWebhooksPage(ctx, guild, viewer, { values: form, problem }),
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

  formPost(router, deps, `${base}/:endpointId/edit`, {
    server: (ctx) => endpointOf(ctx, deps),
    change: async ({ guild, actor, endpoint }, form) => {
      await updateEndpoint(webhookManagement(deps, actor), { guildId: guild.id, id: endpoint.id, ...endpointFieldsOf(form) }).catch(onTheEndpointForm);
      return `${listPath(guild.id)}/${endpoint.id}`;
    },
    rejected: async ({ guild, viewer, endpoint }, form, problem, ctx) =>
      sendPage(ctx, EditEndpointPage({ viewer, guild, endpoint, values: endpointValuesOf(form), problem, eventTypes: EVENT_TYPES }), problem.status),
  });

  for (const change of ['enable', 'disable', 'remove'] as const) {
    router.post(`${base}/:endpointId/${change}`, async (ctx) => {
      const { guild, actor, endpoint } = await endpointOf(ctx, deps);
      await submitOnce(ctx, deps, async () => {
        await changeEndpointState(webhookManagement(deps, actor), guild.id, endpoint.id, change);
        return listPath(guild.id);
      });
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
