import { memberNames } from '../../../src/console/memberNames.js';
import { AppError } from '../../../src/core/errors.js';
import { GiveawayRerollRequest } from '../../../src/giveaways/contract.js';
import { endGiveaway, rerollGiveaway } from '../../../src/giveaways/giveawayUpdates.js';
import type { DrawActor } from '../../../src/giveaways/ids.js';
import { readGiveawayDetail } from '../../../src/giveaways/readGiveaways.js';
import type { RerollAsk } from '../../../src/giveaways/rerollRules.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { EndGiveawayPage, REROLL_FIELDS, RerollGiveawayPage } from '../views/giveawayDrawPages.js';
import { giveawayPath } from '../views/giveawayPages.js';

/**
 * The reroll form as the API's reroll body: the winners ticked are replaced (none ticked: none, unlike the API's
 * omitted list, which replaces all), `count` empty is the default. A 400 INVALID_INPUT names the field to fix.
 */
function rerollAskOf(form: URLSearchParams): RerollAsk {
  const rawCount = (form.get(REROLL_FIELDS.count) ?? '').trim();
  const count = rawCount === '' ? undefined : /^\d{1,3}$/.test(rawCount) ? Number(rawCount) : Number.NaN;
  const parsed = GiveawayRerollRequest.safeParse({ count, replaceUserIds: form.getAll(REROLL_FIELDS.replace) });
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) =>
    issue.path[0] === 'count'
      ? { field: REROLL_FIELDS.count, message: 'Give a whole number of new winners from 1 to 50, or leave it empty.' }
      : { field: REROLL_FIELDS.replace, message: 'Tick winners of this giveaway only.' },
  );
  throw new FormRejection(400, 'INVALID_INPUT', errors.filter((e, i) => errors.findIndex((o) => o.field === e.field) === i));
}

/** The reroll use case's refusals on the field they concern: NOT_A_WINNER on the winners, TOO_MANY_WINNERS on the count (or the winners when none is ticked). */
function onTheRerollForm(ask: RerollAsk) {
  return (err: unknown): never => {
    if (err instanceof AppError && err.code === 'NOT_A_WINNER') throw new FormRejection(422, err.code, [{ field: REROLL_FIELDS.replace, message: `${err.message} Reload the page: the winners changed.` }]);
    if (err instanceof AppError && err.code === 'TOO_MANY_WINNERS') {
      const field = ask.count === undefined ? REROLL_FIELDS.replace : REROLL_FIELDS.count;
      throw new FormRejection(422, err.code, [{ field, message: ask.count === undefined ? 'Every place is taken: tick the winners to replace.' : err.message }]);
    }
    throw err;
  };
}

/** Ending a giveaway early and rerolling its winners, each behind a confirmation page: the API's end and reroll use cases. */
export function giveawayDrawRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/giveaways/:giveawayId';
  const drawing = { db: deps.db, temporal: deps.temporal };

  async function giveawayOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'giveaways');
    const giveaway = await readGiveawayDetail(deps.db, server.guild.id, idParam(ctx, 'giveawayId'));
    // The manager in the console, as the audit row's actor (src/giveaways/drawGiveaway.ts).
    const drawActor: DrawActor = { apiKeyId: null, userId: server.session.userId, requestId: ctx.state.requestId, console: true };
    return { ...server, giveaway, drawActor };
  }

  router.get(`${base}/end`, async (ctx) => {
    const { guild, viewer, giveaway } = await giveawayOf(ctx);
    sendPage(ctx, EndGiveawayPage({ viewer, guild, giveaway }));
  });

  router.post(`${base}/end`, async (ctx) => {
    const { guild, giveaway, drawActor } = await giveawayOf(ctx);
    await submitOnce(ctx, deps, async () => {
      await endGiveaway(drawing, guild.id, giveaway.id, drawActor);
      return giveawayPath(guild.id, giveaway.id);
    });
  });

  router.get(`${base}/reroll`, async (ctx) => {
    const { guild, viewer, giveaway } = await giveawayOf(ctx);
    sendPage(ctx, RerollGiveawayPage({ viewer, guild, giveaway, names: await memberNames(deps.memberCache, guild.id, giveaway.winnerIds) }));
  });

  router.post(`${base}/reroll`, async (ctx) => {
    const { guild, viewer, giveaway, drawActor } = await giveawayOf(ctx);
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const ask = rerollAskOf(form);
        await rerollGiveaway(drawing, guild.id, giveaway.id, ask, drawActor).catch(onTheRerollForm(ask));
        return giveawayPath(guild.id, giveaway.id);
      },
      async (problem) => {
        const names = await memberNames(deps.memberCache, guild.id, giveaway.winnerIds);
        sendPage(ctx, RerollGiveawayPage({ viewer, guild, giveaway, names, form: { values: form, problem } }), problem.status);
      },
    );
  });
}
