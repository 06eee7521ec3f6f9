import { ConsoleRefusal } from '../../../src/console/errors.js';
import { readServerOverview } from '../../../src/console/serverOverview.js';
import { isFeature } from '../../../src/core/features.js';
import { setGuildFeature } from '../../../src/guild/guildManagement.js';
import type { AppDeps } from '../../context.js';
import { formOf, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { OverviewPage } from '../views/overviewPage.js';

/**
 * The page a feature switch may come back to (a feature's page that said it is off): a path of lower-case words inside
 * this server's pages, so the answer's Location never leaves them; anything else is the overview.
 */
const SWITCH_RETURN = /^[a-z]+(?:\/[a-z]+)*$/;

/**
 * A server's overview (also its landing page, `/console/servers/<id>`): plan, features with their switches and what
 * each needs of the bot, recent activity and per-day pictures. The switch is the admin CLI's `guild update --features`
 * for one feature (src/guild/guildManagement.ts), audited with the console user.
 */
export function overviewRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const page = async (ctx: ConsoleContext) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    sendPage(ctx, OverviewPage({ viewer, guild, overview: await readServerOverview(deps, guild) }));
  };
  router.get('/servers/:guildId', page);
  router.get('/servers/:guildId/overview', page);

  router.post('/servers/:guildId/overview/features/:feature', async (ctx) => {
    const { guild, actor } = await managedServer(ctx, deps);
    const feature = ctx.params.feature ?? '';
    if (!isFeature(feature)) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such feature.');
    const form = formOf(ctx);
    const on = form.get('on');
    if (on !== 'true' && on !== 'false') throw new ConsoleRefusal('INVALID_INPUT', 'Say whether to turn the feature on or off.');
    const then = form.get('then') ?? '';
    await submitOnce(ctx, deps, async () => {
      await setGuildFeature(deps.db, guild.id, feature, on === 'true', actor);
      return `/console/servers/${guild.id}/${SWITCH_RETURN.test(then) ? then : 'overview'}`;
    });
  });
}
