import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import { startFanoutsOrLeaveToRelay } from '../../../src/events/outbox.js';
import { addEndpoint, changeEndpointState, rotateEndpointSecret, sendTestEvent, WebhookManagementError } from '../../../src/webhooks/endpointManagement.js';
import { readEndpoint, readEndpoints } from '../../../src/webhooks/readEndpoints.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { AuditActor } from '../../../db/shared/audit.js';
import type { AppDeps } from '../../context.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, showOnceAt, submitOnce, takeShownOnce } from '../formFlow.js';
import { seeOther, sendPage } from '../render.js';
import type { FormState } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';
import { ENDPOINT_FIELDS, RemoveEndpointPage, SecretShownPage, WebhooksPage } from '../views/webhookPages.js';

/** A refusal of the use case that the user fixes on the add form itself. */
function onTheForm(err: unknown): never {
  if (err instanceof WebhookManagementError) {
    if (err.code === 'INVALID_URL') throw new FormRejection(422, err.code, [{ field: ENDPOINT_FIELDS.url, message: err.message }]);
    if (err.code === 'UNKNOWN_EVENT') throw new FormRejection(422, err.code, [{ field: ENDPOINT_FIELDS.events, message: err.message }]);
    if (err.code === 'ENDPOINT_LIMIT_REACHED') {
      throw new FormRejection(409, err.code, [{ message: 'This server already has as many webhook endpoints as its plan allows. Remove one first.' }]);
    }
  }
  throw err;
}

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

  async function sendWebhooksPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, form?: FormState): Promise<void> {
    const endpoints = await readEndpoints(deps.db, guild.id);
    sendPage(ctx, WebhooksPage({ viewer, guild, endpoints, eventTypes: EVENT_TYPES, form }), form?.problem?.status);
  }

  // The result page of an add or a rotation: the POST answers 303 here, with the secret kept for one read.
  const secretPage = (guildId: string, endpointId: number) => `/console/servers/${guildId}/webhooks/${endpointId}/secret`;

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    await sendWebhooksPage(ctx, guild, viewer);
  });

  router.post(base, async (ctx) => {
    const { guild, viewer, actor } = await managedServer(ctx, deps);
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const url = (form.get('url') ?? '').trim();
        if (!url) throw new FormRejection(400, 'INVALID_INPUT', [{ field: ENDPOINT_FIELDS.url, message: 'Give the endpoint a URL.' }]);
        const endpoint = await addEndpoint(management(actor), { guildId: guild.id, url, events: [...new Set(form.getAll('events'))] }).catch(onTheForm);
        return showOnceAt(ctx, deps, secretPage(guild.id, endpoint.id), { secret: endpoint.secret, created: true });
      },
      (problem) => sendWebhooksPage(ctx, guild, viewer, { values: form, problem }),
    );
  });

  router.post(`${base}/:endpointId/rotate-secret`, async (ctx) => {
    const { guild, actor, endpoint } = await endpointOf(ctx);
    await submitOnce(ctx, deps, async () => {
      const secret = await rotateEndpointSecret(management(actor), guild.id, endpoint.id);
      return showOnceAt(ctx, deps, secretPage(guild.id, endpoint.id), { secret, created: false });
    });
  });

  router.get(`${base}/:endpointId/secret`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx);
    const kept = await takeShownOnce(ctx, deps);
    const shown = typeof kept?.secret === 'string' ? { secret: kept.secret, created: kept.created === true } : undefined;
    sendPage(ctx, SecretShownPage({ viewer, guild, endpoint, shown }));
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
