import type { GuildRecord } from '../../../db/guild/guilds.js';
import { SafeText } from '../../../src/core/contract.js';
import { InviteRefusal } from '../../../src/invites/inviteRefusal.js';
import { readActiveSeason, readSeasonPage } from '../../../src/invites/readInviteSetup.js';
import { endInviteSeason, restartInviteSeason, startInviteSeason } from '../../../src/invites/seasons.js';
import type { AppDeps } from '../../context.js';
import { invitesPageServer, invitesServer } from './invitesServer.js';
import { cursorOf } from './listQuery.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { formPost, FormRejection } from '../formFlow.js';
import { sendPage } from '../render.js';
import type { FormState } from '../views/formParts.js';
import { EndSeasonPage, SEASON_FIELDS, SEASON_NAME_MAX, seasonsPath, SeasonsPage, StartSeasonPage } from '../views/inviteSeasonPages.js';
import type { Viewer } from '../views/layout.js';

const PAGE_SIZE = 25;
const SeasonName = SafeText.max(SEASON_NAME_MAX);

/** A season's name from its field: empty is no name; too long or with control characters is a 400 on the field. */
function seasonNameOf(form: URLSearchParams, field: string): string | null {
  const name = (form.get(field) ?? '').trim();
  if (name === '') return null;
  if (!SeasonName.safeParse(name).success) throw new FormRejection(400, 'INVALID_INPUT', [{ field, message: `Give a name of at most ${SEASON_NAME_MAX} characters, without control characters.` }]);
  return name;
}

/** The active-season refusals, on the page of the form that asked (a season started or ended elsewhere since it opened). */
function onTheSeasonForm(err: unknown): never {
  if (err instanceof InviteRefusal && (err.code === 'SEASON_ACTIVE' || err.code === 'NO_ACTIVE_SEASON')) {
    const message = err.code === 'SEASON_ACTIVE' ? 'A season is running already: end it first.' : 'No season is running any more.';
    throw new FormRejection(409, err.code, [{ message }]);
  }
  throw err;
}

/** Invite seasons: the list, start one (its own page), end the running one behind a confirmation (the admin CLI's season-start/-end use cases). */
export function inviteSeasonRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/invites/seasons';

  async function sendSeasonsPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, form?: FormState) {
    const page = await readSeasonPage(deps.db, guild.id, { before: cursorOf(ctx, 'a season number'), limit: PAGE_SIZE });
    const olderHref = page.nextCursor && seasonsPath(guild.id, `?before=${page.nextCursor}`);
    sendPage(ctx, SeasonsPage({ viewer, guild, active: page.active, seasons: page.items, olderHref, form }), form?.problem?.status);
  }

  router.get(base, async (ctx) => {
    const server = await invitesPageServer(ctx, deps, { title: 'Invite seasons', then: 'invites/seasons' });
    if (server) await sendSeasonsPage(ctx, server.guild, server.viewer);
  });

  router.get(`${base}/new`, async (ctx) => {
    const { guild, viewer } = await invitesServer(ctx, deps);
    sendPage(ctx, StartSeasonPage({ viewer, guild }));
  });

  formPost(router, deps, base, {
    server: (ctx) => invitesServer(ctx, deps),
    change: async ({ guild, actor }, form) => {
      const name = seasonNameOf(form, SEASON_FIELDS.name);
      await deps.db
        .transaction()
        .execute((trx) => startInviteSeason(trx, { guildId: guild.id, name, at: deps.clock.now(), actor }))
        .catch(onTheSeasonForm);
      return seasonsPath(guild.id);
    },
    rejected: async ({ guild, viewer }, form, problem, ctx) => sendPage(ctx, StartSeasonPage({ viewer, guild, form: { values: form, problem } }), problem.status),
  });

  router.get(`${base}/end`, async (ctx) => {
    const { guild, viewer } = await invitesServer(ctx, deps);
    sendPage(ctx, EndSeasonPage({ viewer, guild, season: await readActiveSeason(deps.db, guild.id) }));
  });

  formPost(router, deps, `${base}/end`, {
    server: (ctx) => invitesServer(ctx, deps),
    change: async ({ guild, actor }, form) => {
      const restart = form.get(SEASON_FIELDS.restart) === 'on';
      const name = seasonNameOf(form, SEASON_FIELDS.nextName);
      const change = { guildId: guild.id, name, at: deps.clock.now(), actor };
      await deps.db
        .transaction()
        .execute(async (trx) => {
          if (restart) await restartInviteSeason(trx, change);
          else await endInviteSeason(trx, change);
        })
        .catch(onTheSeasonForm);
      return seasonsPath(guild.id);
    },
    // Back on the confirmation while its season runs; on the list when it ended meanwhile.
    rejected: async ({ guild, viewer }, form, problem, ctx) => {
      const season = await readActiveSeason(deps.db, guild.id).catch(() => undefined);
      if (!season) return sendSeasonsPage(ctx, guild, viewer, { values: new URLSearchParams(), problem });
      sendPage(ctx, EndSeasonPage({ viewer, guild, season, form: { values: form, problem } }), problem.status);
    },
  });
}
