import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import { startFanoutsOrLeaveToRelay } from '../../../src/events/outbox.js';
import { rotateEndpointSecret, WebhookManagementError } from '../../../src/webhooks/endpointManagement.js';
import { SECRET_OVERLAPS, type SecretOverlap } from '../../../src/webhooks/signingSecrets.js';
import { sendTestEvent } from '../../../src/webhooks/testEvents.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import type { AppDeps } from '../../context.js';
import { formOf } from '../consoleDeps.js';
import type { ConsoleRouter } from '../consoleState.js';
import { seeOther, sendPage } from '../render.js';
import { RotateSecretPage, SecretShownPage } from '../views/secretPages.js';
import { TestEventPage } from '../views/testEventPage.js';
import { endpointOf, webhookManagement } from './webhookRoutes.js';

const disabledNotice = (url: string) => `The endpoint ${url} is disabled: enable it first. Events raised while it is disabled are never delivered.`;

/** Secret rotation behind its confirmation, and test events of any type. */
export function endpointToolRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/webhooks/:endpointId';

  router.get(`${base}/rotate-secret`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    sendPage(ctx, RotateSecretPage({ viewer, guild, endpoint }));
  });

  router.post(`${base}/rotate-secret`, async (ctx) => {
    const { guild, viewer, actor, endpoint } = await endpointOf(ctx, deps);
    const overlap = formOf(ctx).get('overlap') ?? '';
    if (!Object.hasOwn(SECRET_OVERLAPS, overlap)) throw new ConsoleRefusal('INVALID_INPUT', 'Choose when the old secret stops: now or in 24 hours.');
    const { secret, previousSecretExpiresAt } = await rotateEndpointSecret(webhookManagement(deps, actor), guild.id, endpoint.id, overlap as SecretOverlap);
    sendPage(ctx, SecretShownPage({ viewer, guild, endpoint, secret, created: false, previousUntil: previousSecretExpiresAt }));
  });

  router.get(`${base}/test`, async (ctx) => {
    const { guild, viewer, endpoint } = await endpointOf(ctx, deps);
    sendPage(ctx, TestEventPage({ viewer, guild, endpoint, eventTypes: EVENT_TYPES, refusal: endpoint.enabled ? undefined : disabledNotice(endpoint.url) }));
  });

  router.post(`${base}/test`, async (ctx) => {
    const { guild, viewer, actor, endpoint } = await endpointOf(ctx, deps);
    const sent = await sendTestEvent(webhookManagement(deps, actor), guild.id, endpoint.id, formOf(ctx).get('type') ?? 'webhook.test').catch((err: unknown) => {
      // Disabled since the form was shown: the same page, saying why nothing was sent.
      if (err instanceof WebhookManagementError && err.code === 'ENDPOINT_DISABLED') return undefined;
      throw err;
    });
    if (!sent) {
      sendPage(ctx, TestEventPage({ viewer, guild, endpoint, eventTypes: EVENT_TYPES, refusal: disabledNotice(endpoint.url) }), 409);
      return;
    }
    const event = sent;
    // Started at once after the commit; if Temporal cannot take it now, the worker's relay starts it within seconds.
    await startFanoutsOrLeaveToRelay({ db: deps.db, temporal: deps.temporal, clock: deps.clock, logger: deps.logger }, [event]);
    seeOther(ctx, `/console/servers/${guild.id}/deliveries?event_id=${encodeURIComponent(event.id)}`);
  });
}
