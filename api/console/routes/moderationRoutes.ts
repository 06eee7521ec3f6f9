import { ConsoleRefusal } from '../../../src/console/errors.js';
import { memberNames } from '../../../src/console/memberNames.js';
import { ModCasesQuery } from '../../../src/moderation/contract.js';
import { readCasePage, readCaseTimelinePage } from '../../../src/moderation/readModeration.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { sendPage } from '../render.js';
import { CasePage } from '../views/casePage.js';
import { FeatureOffPage } from '../views/featureOff.js';
import { CaseFinderPage, CasesPage, casesOfPath, moderationPath, type CaseFilters, type CasePerson } from '../views/moderationPages.js';
import { cursorOf } from './listQuery.js';
import { findMember } from './memberPick.js';

const PAGE_SIZE = 25;
const TIMELINE_PAGE = 50;
const FILTERS = ['action', 'source', 'userId', 'moderatorId', 'active'] as const;

/** The list's filters and cursor, checked by the API's own query schema; a wrong one is 400 INVALID_INPUT naming it. */
function caseQueryOf(ctx: ConsoleContext) {
  const given = Object.fromEntries(
    [...FILTERS, 'before'].flatMap((name) => {
      const value = ctx.query[name];
      return typeof value === 'string' && value.trim() !== '' ? [[name, value.trim()]] : [];
    }),
  ) as CaseFilters & { before?: string };
  const parsed = ModCasesQuery.safeParse({ ...given, limit: String(PAGE_SIZE) });
  if (!parsed.success) {
    const wrong = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
    throw new ConsoleRefusal('INVALID_INPUT', `These filters are not valid: ${wrong.join(', ')} (user ids are 17 to 20 digits).`);
  }
  const { before: _before, ...filters } = given;
  return { query: parsed.data, filters };
}

/** Moderation cases: the list with the API's filters, and one case with its timeline (the API's read use cases). */
export function moderationRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/moderation';

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('moderation')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'moderation', active: 'moderation', title: 'Moderation', then: 'moderation' }));
    const { query, filters } = caseQueryOf(ctx);
    const page = await readCasePage(deps.db, guild.id, query);
    const filteredBy = [filters.userId, filters.moderatorId].flatMap((id) => (id ? [id] : []));
    const names = await memberNames(deps.memberCache, guild.id, [...filteredBy, ...page.items.flatMap((c) => [c.userId, c.moderatorId])]);
    const olderHref = page.nextCursor && `${moderationPath(guild.id)}?${new URLSearchParams({ ...filters, before: page.nextCursor })}`;
    sendPage(ctx, CasesPage({ viewer, guild, filters, cases: page.items, names, olderHref }));
  });

  // A member or moderator by name (the server's member search, each found a link to the list filtered by them) or by
  // user id (cases often name members who left or were banned): an id goes straight to the filtered list.
  for (const [path, who] of [['members', 'userId'], ['moderators', 'moderatorId']] as Array<[string, CasePerson]>) {
    router.get(`${base}/${path}`, async (ctx) => {
      const { guild, viewer } = await managedServer(ctx, deps);
      requireFeature(guild, 'moderation');
      const found = await findMember(deps, ctx, guild.id, (userId) => casesOfPath(guild.id, who, userId));
      if (found) sendPage(ctx, CaseFinderPage({ viewer, guild, who, ...found }), found.status);
    });
  }

  router.get(`${base}/cases/:number`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    requireFeature(guild, 'moderation');
    const number = idParam(ctx, 'number');
    const before = cursorOf(ctx, 'an event number', 'before', 15);
    const { found, events, earlierCursor } = await readCaseTimelinePage(deps.db, guild.id, number, { before, limit: TIMELINE_PAGE });
    // Names for this page only: the member, the moderator and the actors of the events shown.
    const names = await memberNames(deps.memberCache, guild.id, [found.userId, found.moderatorId, ...events.flatMap((e) => (e.actorId ? [e.actorId] : []))]);
    const earlierHref = earlierCursor && `${moderationPath(guild.id)}/cases/${number}?before=${earlierCursor}`;
    sendPage(ctx, CasePage({ viewer, guild, found, timeline: { events, earlierHref }, names }));
  });
}
