import { ConsoleRefusal } from '../../../src/console/errors.js';
import { memberNames } from '../../../src/console/memberNames.js';
import { XpChangeIdParams } from '../../../src/levels/contract.js';
import { readLevelMember } from '../../../src/levels/readLevels.js';
import { readConsoleXpChange } from '../../../src/levels/readXpChange.js';
import { requestXpChange } from '../../../src/levels/requestXpChange.js';
import { xpChangeOperation } from '../../../src/levels/xpChangeOperation.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { launchAfterCommit } from '../launchAfterCommit.js';
import { seeOther, sendPage } from '../render.js';
import type { FormProblem } from '../views/formParts.js';
import { ConfirmXpChangePage, xpConfirmPath } from '../views/levelXpConfirmPage.js';
import { LevelMemberPage, LevelSearchPage, XP_FIELDS, XpChangePage } from '../views/levelXpPages.js';
import { requireXpMember, xpChangeOf, xpChangeValues } from './levelXpInput.js';
import { findMember, queryValues } from './memberPick.js';

const USER_ID = /^\d{17,20}$/;
/** Changes that lower or overwrite what a member earned: asked to be confirmed first, as the bank's removal is. */
const CONFIRMED_TYPES: ReadonlySet<string | null> = new Set(['remove', 'set']);

type Member = Awaited<ReturnType<ReturnType<typeof memberLoader>>>;

function memberLoader(deps: AppDeps) {
  return async (ctx: ConsoleContext) => {
    const server = await managedServer(ctx, deps);
    const userId = ctx.params.userId ?? '';
    if (!USER_ID.test(userId)) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such member.');
    const [level, names] = await Promise.all([readLevelMember(deps.db, server.guild.id, userId), memberNames(deps.memberCache, server.guild.id, [userId])]);
    return { ...server, userId, level, name: names.get(userId) ?? userId };
  };
}

/** The member's page with the XP change form showing `values` (and, when it came back, its problem and status). */
function formAgain(ctx: ConsoleContext, m: Member, values: URLSearchParams, problem?: FormProblem): void {
  sendPage(ctx, LevelMemberPage({ viewer: m.viewer, guild: m.guild, member: m.level, name: m.name, form: { values, problem } }), problem?.status);
}

/**
 * A member's XP changed from the console: the API's XP change (requestXpChange, POST .../xp-changes) asked by the
 * console user, its workflow started after the commit as the API's `launch` does, and its page polling its status
 * as GET /levels/xp-changes/{changeId} reads it. The audit row (with the console user) is written when it is applied.
 * Adding acts at once; removing and setting go through a confirmation page first (the form's POST sends the checked
 * values there, taking no form token: nothing changed yet), whose own form is the once-only action.
 */
export function levelXpRoutes(router: ConsoleRouter, deps: AppDeps, base: string): void {
  const memberOf = memberLoader(deps);

  /** The change asked once per form token; a refusal comes back on the member's form with the values sent. */
  async function askOnce(ctx: ConsoleContext, m: Member, form: URLSearchParams): Promise<void> {
    await submitOnce(
      ctx,
      deps,
      async () => {
        const change = xpChangeOf(form);
        await requireXpMember(deps, m.guild.id, m.userId);
        const asked = { guildId: m.guild.id, userId: m.userId, asker: { consoleUserId: m.session.userId }, ...change, reason: change.reason ?? null, createdAt: deps.clock.now() };
        const record = await deps.db.transaction().execute((trx) => requestXpChange(trx, asked));
        await launchAfterCommit(deps, xpChangeOperation, record);
        return `/console/servers/${m.guild.id}/levels/xp-changes/${record.changeId}`;
      },
      async (problem) => formAgain(ctx, m, form, problem),
    );
  }

  // Any member's XP page by name or user id, not only from the leaderboard.
  router.get(`${base}/members`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const found = await findMember(deps, ctx, guild.id, (userId) => `/console/servers/${guild.id}/levels/members/${userId}`);
    if (found) sendPage(ctx, LevelSearchPage({ viewer, guild, ...found }), found.status);
  });

  // The form shows the values a confirmation's Cancel carries back in the query.
  router.get(`${base}/members/:userId`, async (ctx) => {
    const m = await memberOf(ctx);
    const values = queryValues(ctx);
    if (values.has(XP_FIELDS.type)) formAgain(ctx, m, values);
    else sendPage(ctx, LevelMemberPage({ viewer: m.viewer, guild: m.guild, member: m.level, name: m.name }));
  });

  router.post(`${base}/members/:userId/xp-changes`, async (ctx) => {
    const m = await memberOf(ctx);
    requireFeature(m.guild, 'levels');
    const form = formOf(ctx);
    if (!CONFIRMED_TYPES.has(form.get(XP_FIELDS.type))) return askOnce(ctx, m, form);
    try {
      const change = xpChangeOf(form);
      await requireXpMember(deps, m.guild.id, m.userId);
      seeOther(ctx, `${xpConfirmPath(m.guild.id, m.userId)}?${xpChangeValues(change).toString()}`);
    } catch (err) {
      if (!(err instanceof FormRejection)) throw err;
      formAgain(ctx, m, form, err);
    }
  });

  // The confirmation: what the XP and level become; a value that is not one comes back on the form (400).
  router.get(`${base}/members/:userId/xp-changes/confirm`, async (ctx) => {
    const m = await memberOf(ctx);
    requireFeature(m.guild, 'levels');
    const values = queryValues(ctx);
    try {
      const change = xpChangeOf(values);
      sendPage(ctx, ConfirmXpChangePage({ viewer: m.viewer, guild: m.guild, member: m.level, name: m.name, change, values: xpChangeValues(change) }));
    } catch (err) {
      if (!(err instanceof FormRejection)) throw err;
      formAgain(ctx, m, values, err);
    }
  });

  router.post(`${base}/members/:userId/xp-changes/confirm`, async (ctx) => {
    const m = await memberOf(ctx);
    requireFeature(m.guild, 'levels');
    await askOnce(ctx, m, formOf(ctx));
  });

  router.get(`${base}/xp-changes/:changeId`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const params = XpChangeIdParams.safeParse({ guildId: guild.id, changeId: ctx.params.changeId });
    if (!params.success) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such XP change.');
    const { change, reason, askedBy } = await readConsoleXpChange(deps, guild.id, params.data.changeId);
    const names = await memberNames(deps.memberCache, guild.id, askedBy ? [change.userId, askedBy] : [change.userId]);
    const nameOf = (userId: string) => names.get(userId) ?? userId;
    sendPage(ctx, XpChangePage({ viewer, guild, change, name: nameOf(change.userId), reason, askedBy: askedBy && nameOf(askedBy) }));
  });
}
