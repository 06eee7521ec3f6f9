import { ConsoleRefusal } from '../../../src/console/errors.js';
import { memberNames } from '../../../src/console/memberNames.js';
import { readServerDirectory } from '../../../src/console/serverDirectory.js';
import { checkGiveawayStart, createGiveaway, giveawayHostOf } from '../../../src/giveaways/createGiveaway.js';
import { giveawayOperation } from '../../../src/giveaways/giveawayOperation.js';
import { readGiveawayDetail, readGiveawayEntries, readGiveawayPage } from '../../../src/giveaways/readGiveaways.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { submitOnce } from '../formFlow.js';
import { launchAfterCommit } from '../launchAfterCommit.js';
import { sendPage } from '../render.js';
import { FeatureOffPage } from '../views/featureOff.js';
import { GIVEAWAY_FILTERS, giveawayPath, GiveawayPage, GiveawaysPage } from '../views/giveawayPages.js';
import { giveawaysPath, StartGiveawayPage } from '../views/giveawayStartPage.js';
import { onTheStartForm, startBodyOf } from './giveawayStartForm.js';

const PAGE_SIZE = 25;

/** `page` of a page-numbered list (the API's giveaway lists are numbered, 1 to 10,000), 1 when absent. */
function pageOf(ctx: ConsoleContext): number {
  const raw = ctx.query.page;
  if (raw === undefined) return 1;
  if (typeof raw !== 'string' || !/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 10_000) throw new ConsoleRefusal('INVALID_INPUT', '`page` is a number from 1 to 10,000.');
  return Number(raw);
}

function statusOf(ctx: ConsoleContext): (typeof GIVEAWAY_FILTERS)[number] {
  const status = typeof ctx.query.status === 'string' && ctx.query.status !== '' ? ctx.query.status : 'all';
  if (!(GIVEAWAY_FILTERS as readonly string[]).includes(status)) throw new ConsoleRefusal('INVALID_INPUT', `Status is one of ${GIVEAWAY_FILTERS.join(', ')}.`);
  return status as (typeof GIVEAWAY_FILTERS)[number];
}

/** Giveaways: the list, one giveaway with its entrants, and the start (the API's start use case and workflow). */
export function giveawayRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/giveaways';

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('giveaways')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'giveaways', active: 'giveaways', title: 'Giveaways', then: 'giveaways' }));
    const [status, page] = [statusOf(ctx), pageOf(ctx)];
    const [list, directory] = await Promise.all([
      readGiveawayPage(deps.db, guild.id, { status: status === 'all' ? undefined : status, page, limit: PAGE_SIZE }),
      readServerDirectory(deps.platform, guild.id),
    ]);
    const nextHref = list.nextPage === null ? null : `${giveawaysPath(guild.id)}?${new URLSearchParams({ status, page: String(list.nextPage) })}`;
    sendPage(ctx, GiveawaysPage({ viewer, guild, directory, status, giveaways: list.items, nextHref }));
  });

  router.get(`${base}/new`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    requireFeature(guild, 'giveaways');
    sendPage(ctx, StartGiveawayPage({ viewer, guild, directory: await readServerDirectory(deps.platform, guild.id), now: deps.clock.now() }));
  });

  router.post(base, async (ctx) => {
    const { guild, viewer, session, actor } = await managedServer(ctx, deps);
    requireFeature(guild, 'giveaways');
    const form = formOf(ctx);
    const directory = await readServerDirectory(deps.platform, guild.id);
    const now = deps.clock.now();
    await submitOnce(
      ctx,
      deps,
      async () => {
        const body = startBodyOf(form, directory);
        // As the API's route: the platform checks before the transaction, the workflow started once it committed.
        await checkGiveawayStart(deps.platform, guild.id, body, now).catch(onTheStartForm(body, now));
        const defaultHostId = await giveawayHostOf(deps.platform, guild.id, body, session.userId);
        const giveaway = await deps.db
          .transaction()
          .execute((trx) => createGiveaway(trx, { guildId: guild.id, body, defaultHostId, at: now, actor, requestId: ctx.state.requestId }));
        await launchAfterCommit(deps, giveawayOperation, giveaway);
        return giveawayPath(guild.id, giveaway.id);
      },
      async (problem) => sendPage(ctx, StartGiveawayPage({ viewer, guild, directory, now, form: { values: form, problem } }), problem.status),
    );
  });

  router.get(`${base}/:giveawayId`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    requireFeature(guild, 'giveaways');
    const id = idParam(ctx, 'giveawayId');
    const page = pageOf(ctx);
    const giveaway = await readGiveawayDetail(deps.db, guild.id, id);
    const [entries, directory] = await Promise.all([readGiveawayEntries(deps.db, guild.id, id, { page, limit: PAGE_SIZE }), readServerDirectory(deps.platform, guild.id)]);
    const people = [giveaway.hostId, ...giveaway.winnerIds, ...giveaway.draws.flatMap((d) => [...d.winnerIds, ...d.replacedUserIds]), ...entries.items.map((e) => e.userId)];
    const names = await memberNames(deps.memberCache, guild.id, people);
    const nextHref = entries.nextPage === null ? null : `${giveawayPath(guild.id, id)}?page=${entries.nextPage}`;
    sendPage(ctx, GiveawayPage({ viewer, guild, directory, giveaway, entries, names, nextHref }));
  });
}
