import { ConsoleRefusal } from '../../../src/console/errors.js';
import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import { launchDeliveryRetry } from '../../../src/webhooks/deliveryRelay.js';
import { retryDelivery, WebhookManagementError } from '../../../src/webhooks/endpointManagement.js';
import { readDelivery, readDeliveryPage } from '../../../src/webhooks/readDeliveries.js';
import { readEndpoint } from '../../../src/webhooks/readEndpoints.js';
import type { AppDeps } from '../../context.js';
import { idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { seeOther, sendPage } from '../render.js';
import { DELIVERY_STATUSES, DeliveriesPage, DeliveryPage, type DeliveryFilter } from '../views/deliveryPages.js';

const PAGE_SIZE = 25;

function filterOf(ctx: ConsoleContext): DeliveryFilter & { beforeId?: number } {
  const q = ctx.query;
  const one = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const status = one(q.status);
  const event = one(q.event);
  const before = one(q.before);
  if (status && !(DELIVERY_STATUSES as readonly string[]).includes(status)) throw new ConsoleRefusal('INVALID_INPUT', `Status is one of ${DELIVERY_STATUSES.join(', ')}.`);
  if (event && !(EVENT_TYPES as readonly string[]).includes(event)) throw new ConsoleRefusal('INVALID_INPUT', 'Unknown event type.');
  if (before && !/^\d{1,15}$/.test(before)) throw new ConsoleRefusal('INVALID_INPUT', '`before` is a delivery number.');
  return { status, event, beforeId: before ? Number(before) : undefined };
}

/** Deliveries: per endpoint (filtered by status and event type, paginated), one delivery with its attempts, retry. */
export function deliveryRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const temporalRunHref = (workflowId: string) =>
    `${deps.config.console.temporalUiUrl}/namespaces/${encodeURIComponent(deps.config.temporal.namespace)}/workflows/${encodeURIComponent(workflowId)}`;

  router.get('/servers/:guildId/webhooks/:endpointId/deliveries', async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const id = idParam(ctx, 'endpointId');
    const endpoint = await readEndpoint(deps.db, guild.id, id);
    if (!endpoint) throw new WebhookManagementError('ENDPOINT_NOT_FOUND', `This server has no webhook endpoint ${id}.`);
    const filter = filterOf(ctx);
    const rows = await readDeliveryPage(deps.db, endpoint.id, {
      status: filter.status as (typeof DELIVERY_STATUSES)[number] | undefined,
      eventType: filter.event,
      beforeId: filter.beforeId,
      limit: PAGE_SIZE + 1,
    });
    const deliveries = rows.slice(0, PAGE_SIZE);
    const older = new URLSearchParams({ ...(filter.status && { status: filter.status }), ...(filter.event && { event: filter.event }) });
    if (rows.length > PAGE_SIZE) older.set('before', String(deliveries.at(-1)!.id));
    const olderHref = rows.length > PAGE_SIZE ? `${ctx.path}?${older}` : null;
    sendPage(ctx, DeliveriesPage({ viewer, guild, endpoint, deliveries, filter, eventTypes: EVENT_TYPES, olderHref }));
  });

  router.get('/servers/:guildId/deliveries/:deliveryId', async (ctx) => {
    const { guild, viewer, session } = await managedServer(ctx, deps);
    const id = idParam(ctx, 'deliveryId');
    const delivery = await readDelivery(deps.db, guild.id, id);
    if (!delivery) throw new ConsoleRefusal('PAGE_NOT_FOUND', `This server has no delivery ${id}.`);
    // Temporal UI is the operators' tool (an internal address showing every server's runs), never a customer's.
    const operator = deps.config.console.operatorUserIds.includes(session.userId);
    sendPage(ctx, DeliveryPage({ viewer, guild, delivery, temporalRunHref: operator ? temporalRunHref : undefined }));
  });

  router.post('/servers/:guildId/deliveries/:deliveryId/retry', async (ctx) => {
    const { guild, actor } = await managedServer(ctx, deps);
    const id = idParam(ctx, 'deliveryId');
    // Another server's delivery is a page that does not exist here, as on the detail page.
    if (!(await readDelivery(deps.db, guild.id, id))) throw new ConsoleRefusal('PAGE_NOT_FOUND', `This server has no delivery ${id}.`);
    await retryDelivery({ db: deps.db, clock: deps.clock, actor, allowInsecureLocal: deps.config.webhooks.allowInsecureLocal }, guild.id, id);
    // Started at once after the commit; if Temporal cannot take it now, the worker's relay starts it within seconds.
    await launchDeliveryRetry(deps, id).catch((err: unknown) => deps.logger.warn({ err, deliveryId: id }, 'retry start failed; the relay retries it'));
    seeOther(ctx, `/console/servers/${guild.id}/deliveries/${id}`);
  });
}
