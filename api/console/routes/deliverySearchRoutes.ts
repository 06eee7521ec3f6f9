import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import { launchDeliveryRetries } from '../../../src/webhooks/deliveryRelay.js';
import { recoverFailedDeliveries } from '../../../src/webhooks/deliveryRetries.js';
import { readDeliveryPage } from '../../../src/webhooks/readDeliveries.js';
import type { WebhookEndpoint } from '../../../src/webhooks/readEndpoints.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { AppDeps } from '../../context.js';
import { formOf, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import type { Viewer } from '../views/layout.js';
import { DeliveriesPage } from '../views/deliveryListPages.js';
import { RecoverPage } from '../views/recoverPage.js';
import { deliveryFilterOf } from './deliveryFilter.js';
import { endpointOf, webhookManagement } from './webhookRoutes.js';

const PAGE_SIZE = 25;
const HOUR_MS = 3_600_000;

/** A `datetime-local` value, read as UTC (the page says so); minutes, or seconds too. */
function sinceOf(text: string): Date {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text) ? new Date(`${text}${text.length === 16 ? ':00' : ''}.000Z`) : undefined;
  if (!at || Number.isNaN(at.getTime())) throw new ConsoleRefusal('INVALID_INPUT', 'Since is a date and time: YYYY-MM-DDTHH:MM (UTC).');
  return at;
}

/** Deliveries lists (one endpoint's, the whole server's) with their filters, and the per-endpoint recovery. */
export function deliverySearchRoutes(router: ConsoleRouter, deps: AppDeps): void {
  async function list(ctx: ConsoleContext, page: { viewer: Viewer; guild: GuildRecord; endpoint?: WebhookEndpoint }) {
    const { filter, search } = deliveryFilterOf(ctx);
    const rows = await readDeliveryPage(deps.db, page.guild.id, { ...search, endpointId: page.endpoint?.id, limit: PAGE_SIZE + 1 });
    const deliveries = rows.slice(0, PAGE_SIZE);
    const olderHref = rows.length > PAGE_SIZE ? `${ctx.path}?${new URLSearchParams({ ...filter, before: String(deliveries.at(-1)!.id) })}` : null;
    sendPage(ctx, DeliveriesPage({ ...page, deliveries, filter, eventTypes: EVENT_TYPES, olderHref }));
  }

  router.get('/servers/:guildId/deliveries', async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    await list(ctx, { viewer, guild });
  });

  router.get('/servers/:guildId/webhooks/:endpointId/deliveries', async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    await list(ctx, { viewer, guild, endpoint });
  });

  router.get('/servers/:guildId/webhooks/:endpointId/recover', async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    // A day back by default: the usual outage to recover from.
    const since = new Date(Math.floor((deps.clock.now().getTime() - 24 * HOUR_MS) / 60_000) * 60_000).toISOString().slice(0, 16);
    sendPage(ctx, RecoverPage({ viewer, guild, endpoint, since }));
  });

  router.post('/servers/:guildId/webhooks/:endpointId/recover', async (ctx) => {
    const { guild, actor, endpoint } = await endpointOf(ctx, deps);
    const sinceText = (formOf(ctx).get('since') ?? '').trim();
    await submitOnce(ctx, deps, async () => {
      const ids = await recoverFailedDeliveries(webhookManagement(deps, actor), guild.id, endpoint.id, sinceOf(sinceText));
      // The first rounds start now, after the commit; the worker's relay starts the rest (and any that failed here).
      await launchDeliveryRetries(deps, ids).catch((err: unknown) => deps.logger.warn({ err, endpointId: endpoint.id }, 'recovery start failed; the relay retries it'));
      return `/console/servers/${guild.id}/webhooks/${endpoint.id}/deliveries?status=pending`;
    });
  });
}
