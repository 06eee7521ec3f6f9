import { ConsoleRefusal } from '../../../src/console/errors.js';
import { memberNames } from '../../../src/console/memberNames.js';
import { findHumanMember } from '../../../src/core/members.js';
import { XpChangeIdParams, XpChangeRequest } from '../../../src/levels/contract.js';
import { readLevelMember } from '../../../src/levels/readLevels.js';
import { readXpChange } from '../../../src/levels/readXpChange.js';
import { requestXpChange } from '../../../src/levels/requestXpChange.js';
import { xpChangeOperation } from '../../../src/levels/xpChangeOperation.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { launchAfterCommit } from '../launchAfterCommit.js';
import { sendPage } from '../render.js';
import type { FieldError } from '../views/formParts.js';
import { LevelMemberPage, LevelSearchPage, XP_FIELDS, XpChangePage } from '../views/levelXpPages.js';
import { findMember } from './memberPick.js';

const USER_ID = /^\d{17,20}$/;

/** The form's input checked by the API's own schema (XpChangeRequest), or a 400 naming each field to fix. */
function xpChangeOf(form: URLSearchParams) {
  const reason = (form.get(XP_FIELDS.reason) ?? '').trim();
  const amount = (form.get(XP_FIELDS.amount) ?? '').trim();
  const parsed = XpChangeRequest.safeParse({
    type: form.get(XP_FIELDS.type),
    unit: form.get(XP_FIELDS.unit),
    amount: /^\d{1,10}$/.test(amount) ? Number(amount) : Number.NaN,
    reason: reason === '' ? null : reason,
  });
  if (parsed.success) return parsed.data;
  const fields: Record<string, FieldError> = {
    type: { field: XP_FIELDS.type, message: 'Choose to add, remove or set.' },
    unit: { field: XP_FIELDS.unit, message: 'Choose XP or levels.' },
    amount: { field: XP_FIELDS.amount, message: 'The amount is a whole number from 0 to 2,000,000,000.' },
    reason: { field: XP_FIELDS.reason, message: 'Give a reason of at most 200 characters, without control characters.' },
  };
  const wrong = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  throw new FormRejection(400, 'INVALID_INPUT', [...wrong].map((k) => fields[k]!));
}

/**
 * A member's XP changed from the console: the API's XP change (requestXpChange, POST .../xp-changes) asked by the
 * console user, its workflow started after the commit as the API's `launch` does, and its page polling its status
 * as GET /levels/xp-changes/{changeId} reads it. The audit row (with the console user) is written when it is applied.
 */
export function levelXpRoutes(router: ConsoleRouter, deps: AppDeps, base: string): void {
  async function memberOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    const userId = ctx.params.userId ?? '';
    if (!USER_ID.test(userId)) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such member.');
    const [level, names] = await Promise.all([readLevelMember(deps.db, server.guild.id, userId), memberNames(deps.memberCache, server.guild.id, [userId])]);
    return { ...server, userId, level, name: names.get(userId) ?? userId };
  }

  // Any member's XP page by name or user id, not only from the leaderboard.
  router.get(`${base}/members`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const found = await findMember(deps, ctx, guild.id, (userId) => `/console/servers/${guild.id}/levels/members/${userId}`);
    if (found) sendPage(ctx, LevelSearchPage({ viewer, guild, ...found }), found.status);
  });

  router.get(`${base}/members/:userId`, async (ctx) => {
    const { guild, viewer, level, name } = await memberOf(ctx);
    sendPage(ctx, LevelMemberPage({ viewer, guild, member: level, name }));
  });

  router.post(`${base}/members/:userId/xp-changes`, async (ctx) => {
    const { guild, viewer, session, userId, level, name } = await memberOf(ctx);
    requireFeature(guild, 'levels');
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const body = xpChangeOf(form);
        const found = await findHumanMember(deps.platform, guild.id, userId);
        if ('refusal' in found) {
          const [status, message] = found.refusal === 'MEMBER_NOT_FOUND' ? [404, 'This user is not a member of the server.'] : [422, 'This is a bot account: bots earn no XP.'];
          throw new FormRejection(status, found.refusal, [{ field: XP_FIELDS.type, message }]);
        }
        const record = await deps.db.transaction().execute((trx) =>
          requestXpChange(trx, { guildId: guild.id, userId, asker: { consoleUserId: session.userId }, ...body, reason: body.reason ?? null, createdAt: deps.clock.now() }),
        );
        await launchAfterCommit(deps, xpChangeOperation, record);
        return `/console/servers/${guild.id}/levels/xp-changes/${record.changeId}`;
      },
      async (problem) => sendPage(ctx, LevelMemberPage({ viewer, guild, member: level, name, form: { values: form, problem } }), problem.status),
    );
  });

  router.get(`${base}/xp-changes/:changeId`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const params = XpChangeIdParams.safeParse({ guildId: guild.id, changeId: ctx.params.changeId });
    if (!params.success) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such XP change.');
    const change = await readXpChange(deps, { guildId: guild.id, console: true }, params.data.changeId);
    const names = await memberNames(deps.memberCache, guild.id, [change.userId]);
    sendPage(ctx, XpChangePage({ viewer, guild, change, name: names.get(change.userId) ?? change.userId }));
  });
}
