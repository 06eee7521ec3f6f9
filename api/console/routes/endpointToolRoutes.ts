import { ConsoleRefusal } from '../../../src/console/errors.js';
import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import { startFanoutsOrLeaveToRelay } from '../../../src/events/outbox.js';
import { rotateEndpointSecret, WebhookManagementError } from '../../../src/webhooks/endpointManagement.js';
import { SECRET_OVERLAPS, type SecretOverlap } from '../../../src/webhooks/signingSecrets.js';
import { sendTestEvent } from '../../../src/webhooks/testEvents.js';
import type { AppDeps } from '../../context.js';
import { formOf } from '../consoleDeps.js';
import type { ConsoleRouter } from '../consoleState.js';
import { FormRejection, showOnceAt, submitOnce, takeShownOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { RotateSecretPage, SecretShownPage } from '../views/secretPages.js';
import { TestEventPage } from '../views/testEventPage.js';
import { endpointOf, secretPage, webhookManagement } from './webhookRoutes.js';

const disabledNotice = (url: string) => `The endpoint ${url} is disabled: enable it first. Events raised while it is disabled are never delivered.`;

/** Secret rotation behind its confirmation (the new secret shown once after the redirect), and test events of any type. */
export function endpointToolRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/webhooks/:endpointId';

  router.get(`${base}/rotate-secret`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    sendPage(ctx, RotateSecretPage({ viewer, guild, endpoint }));
  });

  router.post(`${base}/rotate-secret`, async (ctx) => {
    const { guild, actor, endpoint } = await endpointOf(ctx, deps);
    const overlap = formOf(ctx).get('overlap') ?? '';
    await submitOnce(ctx, deps, async () => {
      if (!Object.hasOwn(SECRET_OVERLAPS, overlap)) throw new ConsoleRefusal('INVALID_INPUT', 'Choose when the old secret stops: now or in 24 hours.');
      const rotated = await rotateEndpointSecret(webhookManagement(deps, actor), guild.id, endpoint.id, overlap as SecretOverlap);
      const previousUntil = rotated.previousSecretExpiresAt?.toISOString() ?? null;
      return showOnceAt(ctx, deps, secretPage(guild.id, endpoint.id), { secret: rotated.secret, created: false, previousUntil });
    });
  });

  router.get(`${base}/secret`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    const kept = await takeShownOnce(ctx, deps);
    const shown =
      typeof kept?.secret === 'string'
        ? { secret: kept.secret, created: kept.created === true, previousUntil: typeof kept.previousUntil === 'string' ? new Date(kept.previousUntil) : null }
        : undefined;
    sendPage(ctx, SecretShownPage({ viewer, guild, endpoint, shown }));
  });

  router.get(`${base}/test`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    sendPage(ctx, TestEventPage({ viewer, guild, endpoint, eventTypes: EVENT_TYPES, refusal: endpoint.enabled ? undefined : disabledNotice(endpoint.url) }));
  });

  router.post(`${base}/test`, async (ctx) => {
    const { guild, viewer, actor, endpoint } = await endpointOf(ctx, deps);
    const type = formOf(ctx).get('type') ?? 'webhook.test';
    await submitOnce(
      ctx,
      deps,
      async () => {
        const event = await sendTestEvent(webhookManagement(deps, actor), guild.id, endpoint.id, type).catch((err: unknown) => {
          // Disabled since the form was shown: the same page, saying why nothing was sent.
          if (err instanceof WebhookManagementError && err.code === 'ENDPOINT_DISABLED') throw new FormRejection(409, err.code, [{ message: err.message }]);
          throw err;
        });
        // Started at once after the commit; if Temporal cannot take it now, the worker's relay starts it within seconds.
        await startFanoutsOrLeaveToRelay({ db: deps.db, temporal: deps.temporal, clock: deps.clock, logger: deps.logger }, [event]);
        return `/console/servers/${guild.id}/deliveries?event_id=${encodeURIComponent(event.id)}`;
      },
      async (problem) =>
        sendPage(ctx, TestEventPage({ viewer, guild, endpoint, eventTypes: EVENT_TYPES, refusal: problem.errors[0]!.message }), problem.status),
    );
  });
}
