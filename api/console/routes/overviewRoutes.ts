import { ConsoleRefusal } from '../../../src/console/errors.js';
import { readServerOverview } from '../../../src/console/serverOverview.js';
import { isFeature, type Feature } from '../../../src/core/features.js';
import { setGuildFeature } from '../../../src/guild/guildManagement.js';
import type { AppDeps } from '../../context.js';
import { formOf, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { submitOnce } from '../formFlow.js';
import { seeOther, sendPage } from '../render.js';
import { ConfirmFeatureOffPage, featureOffPath } from '../views/featureOff.js';
import { OverviewPage } from '../views/overviewPage.js';
import { queryValues } from './memberPick.js';

/**
 * The page a feature switch may come back to (a feature's page that said it is off): a path of lower-case words inside
 * this server's pages, so the answer's Location never leaves them; anything else is the overview.
 */
const SWITCH_RETURN = /^[a-z]+(?:\/[a-z]+)*$/;
const returnOf = (then: string | null) => (then !== null && SWITCH_RETURN.test(then) ? then : 'overview');

function featureOf(ctx: ConsoleContext): Feature {
  const feature = ctx.params.feature ?? '';
  if (!isFeature(feature)) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such feature.');
  return feature;
}

/**
 * A server's overview (also its landing page, `/console/servers/<id>`): plan, features with their switches and what
 * each needs of the bot, recent activity and per-day pictures. The switch is the admin CLI's `guild update --features`
 * for one feature (src/guild/guildManagement.ts), audited with the console user. Turning on acts at once; turning off
 * goes through a confirmation page first (what stops, that nothing is deleted), whose own form is the once-only action.
 */
export function overviewRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const page = async (ctx: ConsoleContext) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    sendPage(ctx, OverviewPage({ viewer, guild, overview: await readServerOverview(deps, guild) }));
  };
  router.get('/servers/:guildId', page);
  router.get('/servers/:guildId/overview', page);

  /** The switch set once per form token, then back to the page `then` names. */
  async function switchOnce(ctx: ConsoleContext, server: Awaited<ReturnType<typeof managedServer>>, feature: Feature, on: boolean): Promise<void> {
    const { guild, actor } = server;
    const then = returnOf(formOf(ctx).get('then'));
    await submitOnce(ctx, deps, async () => {
      await setGuildFeature(deps.db, guild.id, feature, on, actor);
      return `/console/servers/${guild.id}/${then}`;
    });
  }

  router.post('/servers/:guildId/overview/features/:feature', async (ctx) => {
    const server = await managedServer(ctx, deps);
    const feature = featureOf(ctx);
    const on = formOf(ctx).get('on');
    if (on !== 'true' && on !== 'false') throw new ConsoleRefusal('INVALID_INPUT', 'Say whether to turn the feature on or off.');
    if (on === 'true') return switchOnce(ctx, server, feature, true);
    // Nothing changes yet: the form's token is not taken, the confirmation's form has its own.
    seeOther(ctx, `${featureOffPath(server.guild.id, feature)}?${new URLSearchParams({ then: returnOf(formOf(ctx).get('then')) }).toString()}`);
  });

  router.get('/servers/:guildId/overview/features/:feature/off', async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const feature = featureOf(ctx);
    sendPage(ctx, ConfirmFeatureOffPage({ viewer, guild, feature, then: returnOf(queryValues(ctx).get('then')) }));
  });

  router.post('/servers/:guildId/overview/features/:feature/off', async (ctx) => {
    const server = await managedServer(ctx, deps);
    await switchOnce(ctx, server, featureOf(ctx), false);
  });
}
