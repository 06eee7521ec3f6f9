import { ConsoleRefusal } from '../../../src/console/errors.js';
import { launchDeliveryRetry } from '../../../src/webhooks/deliveryRelay.js';
import { retryDelivery } from '../../../src/webhooks/deliveryRetries.js';
import { readDelivery } from '../../../src/webhooks/readDeliveries.js';
import type { AppDeps } from '../../context.js';
import { idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleRouter } from '../consoleState.js';
import { submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { DeliveryPage } from '../views/deliveryPages.js';

/** One delivery with its attempts, and another round of attempts for it (a retry, or a resend once delivered). */
export function deliveryRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const temporalRunHref = (workflowId: string) =>
    `${deps.config.console.temporalUiUrl}/namespaces/${encodeURIComponent(deps.config.temporal.namespace)}/workflows/${encodeURIComponent(workflowId)}`;

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
    await submitOnce(ctx, deps, async () => {
      await retryDelivery({ db: deps.db, clock: deps.clock, actor, allowInsecureLocal: deps.config.webhooks.allowInsecureLocal }, guild.id, id);
      // Started at once after the commit; if Temporal cannot take it now, the worker's relay starts it within seconds.
      await launchDeliveryRetry(deps, id).catch((err: unknown) => deps.logger.warn({ err, deliveryId: id }, 'retry start failed; the relay retries it'));
      return `/console/servers/${guild.id}/deliveries/${id}`;
    });
  });
}
