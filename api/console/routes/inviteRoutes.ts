import type { GuildRecord } from '../../../db/guild/guilds.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import { memberNames } from '../../../src/console/memberNames.js';
import { findHumanMember } from '../../../src/core/members.js';
import type { MemberSearch } from '../../../src/console/memberSearch.js';
import { SNOWFLAKE_PATTERN } from '../../../src/core/snowflake.js';
import { addBonusInvites } from '../../../src/invites/addBonusInvites.js';
import { BonusRequest, MAX_BONUS_AMOUNT } from '../../../src/invites/contract.js';
import { milestoneOperation } from '../../../src/invites/milestoneOperation.js';
import { readInviteLeaderboard, readInviteMember } from '../../../src/invites/readInvites.js';
import type { AppDeps } from '../../context.js';
import { formOf, managedServer } from '../consoleDeps.js';
import { invitesServer } from './invitesServer.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { launchAfterCommit } from '../launchAfterCommit.js';
import { sendPage } from '../render.js';
import type { FieldError, FormState } from '../views/formParts.js';
import { INVITE_FIELDS, inviteMemberPath, InviteMemberPage, InvitesOffPage, invitesPath, InvitesPage } from '../views/invitePages.js';
import type { Viewer } from '../views/layout.js';
import { inviteMilestoneRoutes } from './inviteMilestoneRoutes.js';
import { findMember } from './memberPick.js';
import { inviteSeasonRoutes } from './inviteSeasonRoutes.js';

const PAGE_SIZE = 25;

function boardQueryOf(ctx: ConsoleContext) {
  const period = ctx.query.period === undefined ? 'all' : ctx.query.period;
  if (period !== 'all' && period !== 'season') throw new ConsoleRefusal('INVALID_INPUT', '`period` is all or season.');
  const raw = typeof ctx.query.cursor === 'string' ? ctx.query.cursor : '0';
  if (!/^\d{1,8}$/.test(raw)) throw new ConsoleRefusal('INVALID_INPUT', '`cursor` is a rank to start after.');
  return { period: period as 'all' | 'season', cursor: Number(raw), limit: PAGE_SIZE };
}

/** The bonus form's input, checked by the API's own schema, or a 400 naming each field to fix. */
function bonusOf(form: URLSearchParams) {
  const errors: FieldError[] = [];
  const rawAmount = (form.get(INVITE_FIELDS.amount) ?? '').trim();
  const reason = (form.get(INVITE_FIELDS.reason) ?? '').trim();
  const amount = /^[-+]?\d{1,7}$/.test(rawAmount) ? Number(rawAmount) : NaN;
  const parsedAmount = BonusRequest.shape.amount.safeParse(amount);
  if (!parsedAmount.success) errors.push({ field: INVITE_FIELDS.amount, message: `Give a whole number from -${MAX_BONUS_AMOUNT.toLocaleString('en')} to ${MAX_BONUS_AMOUNT.toLocaleString('en')}.` });
  const parsedReason = BonusRequest.shape.reason.safeParse(reason === '' ? null : reason);
  if (!parsedReason.success) errors.push({ field: INVITE_FIELDS.reason, message: 'Give a reason of at most 200 characters, without control characters.' });
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return { amount: parsedAmount.data!, reason: parsedReason.data ?? null };
}

/** The user id of a member's page; anything else is a page that does not exist. */
function userParam(ctx: ConsoleContext): string {
  const userId = ctx.params.userId ?? '';
  if (!SNOWFLAKE_PATTERN.test(userId)) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such page.');
  return userId;
}

/**
 * Invites: the leaderboard (the API's reader, all time or the current season), a member as an inviter (the API's
 * GET /invites/members/{userId}) and bonus invites (the API's use case, its milestone check started the same way);
 * then the area's seasons and milestone pages.
 */
export function inviteRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/invites';

  async function sendInvitesPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, lookup?: FormState & { search: MemberSearch }) {
    const query = boardQueryOf(ctx);
    const board = await readInviteLeaderboard(deps.db, guild.id, query);
    const names = await memberNames(deps.memberCache, guild.id, board.items.map((r) => r.userId));
    const olderHref = board.nextCursor && invitesPath(guild.id, `?${new URLSearchParams({ ...(query.period === 'season' && { period: 'season' }), cursor: board.nextCursor })}`);
    sendPage(ctx, InvitesPage({ viewer, guild, board, names, olderHref, lookup }), lookup?.problem?.status);
  }

  async function sendMemberPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, userId: string, form?: FormState) {
    const [member, names] = await Promise.all([readInviteMember(deps.db, guild.id, userId), memberNames(deps.memberCache, guild.id, [userId])]);
    sendPage(ctx, InviteMemberPage({ viewer, guild, member, name: names.get(userId), form }), form?.problem?.status);
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('invites')) return sendPage(ctx, InvitesOffPage({ viewer, guild, title: 'Invites', then: 'invites' }));
    await sendInvitesPage(ctx, guild, viewer);
  });

  // The finder (a GET: it changes nothing): a user id goes to the member's page, a name lists the members found.
  router.get(`${base}/members`, async (ctx) => {
    const { guild, viewer } = await invitesServer(ctx, deps);
    const found = await findMember(deps, ctx, guild.id, (userId) => inviteMemberPath(guild.id, userId));
    if (found) await sendInvitesPage(ctx, guild, viewer, found);
  });

  router.get(`${base}/members/:userId`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('invites')) return sendPage(ctx, InvitesOffPage({ viewer, guild, title: 'Invites', then: 'invites' }));
    await sendMemberPage(ctx, guild, viewer, userParam(ctx));
  });

  router.post(`${base}/members/:userId/bonus`, async (ctx) => {
    const { guild, viewer, actor } = await invitesServer(ctx, deps);
    const userId = userParam(ctx);
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const bonus = bonusOf(form);
        // The API route's check: bonus invites go to a human member of the server only.
        const found = await findHumanMember(deps.platform, guild.id, userId);
        if ('refusal' in found) {
          const message = found.refusal === 'MEMBER_NOT_FOUND' ? 'This user is not a member of the server.' : 'Bots get no bonus invites.';
          throw new FormRejection(found.refusal === 'MEMBER_NOT_FOUND' ? 404 : 422, found.refusal, [{ message }]);
        }
        const { milestoneCheck } = await deps.db
          .transaction()
          .execute((trx) => addBonusInvites(trx, { guildId: guild.id, userId, ...bonus, actor, requestId: ctx.state.requestId, at: deps.clock.now() }));
        if (milestoneCheck) await launchAfterCommit(deps, milestoneOperation, milestoneCheck);
        return inviteMemberPath(guild.id, userId);
      },
      (problem) => sendMemberPage(ctx, guild, viewer, userId, { values: form, problem }),
    );
  });

  inviteSeasonRoutes(router, deps);
  inviteMilestoneRoutes(router, deps);
}
