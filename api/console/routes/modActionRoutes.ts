import { memberNames } from '../../../src/console/memberNames.js';
import { AppError } from '../../../src/core/errors.js';
import { admitModAction } from '../../../src/moderation/admitModAction.js';
import { ModActionIdParams } from '../../../src/moderation/contract.js';
import { foreseeModRefusal } from '../../../src/moderation/foreseeModRefusal.js';
import { modActionOperation } from '../../../src/moderation/modActionOperation.js';
import { readModAction } from '../../../src/moderation/readModAction.js';
import type { ModRefusal } from '../../../src/moderation/refusalRules.js';
import { requestModAction } from '../../../src/moderation/requestModAction.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { launchAfterCommit } from '../launchAfterCommit.js';
import { sendPage } from '../render.js';
import type { FormProblem } from '../views/formParts.js';
import { MOD_FIELDS, type ModActionInput } from '../views/modActionFields.js';
import { ModActionFormPage } from '../views/modActionForm.js';
import { actionPath, CONFIRMED_FIELD, ConfirmModActionPage, ModActionStatusPage } from '../views/modActionPages.js';
import { refusalText } from '../views/modRefusalText.js';
import { memberPick, queryValues } from './memberPick.js';
import { CONFIRMED_ACTIONS, modActionInput } from './modActionInput.js';

/** Refusals about the action itself; the others are about the member picked. */
const ACTION_REFUSALS: ReadonlySet<string> = new Set(['MODERATOR_MISSING_PERMISSION', 'BOT_MISSING_PERMISSIONS']);

/** A refusal of the rules as the form shows it: the API's code, 404 for a user who is not a member, 409 otherwise. */
function refusalOnForm(code: ModRefusal): FormRejection {
  const field = ACTION_REFUSALS.has(code) ? MOD_FIELDS.action : MOD_FIELDS.member;
  return new FormRejection(code === 'MEMBER_NOT_FOUND' ? 404 : 409, code, [{ field, message: refusalText(code) }]);
}

/**
 * Moderation actions from the dashboard: the form, the confirmation of a kick, ban or timeout, and the action's
 * status. The action is the API's (admitModAction, requestModAction, its workflow started after the commit), asked
 * in the signed-in manager's name with source `console`: the same rules decide, shown on the form when they refuse.
 */
export function modActionRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/moderation/actions';

  async function moderatedServer(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'moderation');
    return server;
  }

  async function nameOf(guildId: string, userId: string) {
    return (await memberNames(deps.memberCache, guildId, [userId])).get(userId) ?? `user ${userId}`;
  }

  /** The API's action in the manager's name: admitted, checked against the rules now, stored, its workflow started. */
  async function takeAction(guildId: string, moderatorId: string, input: ModActionInput): Promise<string> {
    const by = { moderatorId, via: 'console' as const };
    await admitModAction(deps, { guildId, userId: input.userId, action: input.action, by }).catch((err: unknown) => {
      throw err instanceof AppError && err.code === 'MEMBER_NOT_FOUND' ? refusalOnForm('MEMBER_NOT_FOUND') : err;
    });
    const refusal = await foreseeModRefusal(deps, { guildId, userId: input.userId, action: input.action, moderatorId });
    if (refusal) throw refusalOnForm(refusal);
    const record = await deps.db.transaction().execute((trx) => requestModAction(trx, { guildId, ...input, by, requestedAt: deps.clock.now() }));
    await launchAfterCommit(deps, modActionOperation, record);
    return actionPath(guildId, record.actionId);
  }

  router.get(`${base}/new`, async (ctx) => {
    const { guild, viewer } = await moderatedServer(ctx);
    const values = queryValues(ctx);
    const { picker, problem, status } = await memberPick(deps, ctx, guild.id, MOD_FIELDS.member, values);
    sendPage(ctx, ModActionFormPage({ viewer, guild, picker, values, problem }), status);
  });

  router.post(base, async (ctx) => {
    const { guild, viewer, session } = await moderatedServer(ctx);
    const form = formOf(ctx);
    const again = async (problem: FormProblem) => {
      const { picker } = await memberPick(deps, ctx, guild.id, MOD_FIELDS.member, form);
      sendPage(ctx, ModActionFormPage({ viewer, guild, picker, values: form, problem }), problem.status);
    };
    if (form.get(CONFIRMED_FIELD) !== 'yes') {
      // The first step of a kick, ban or timeout only shows what it will do (the rules first): nothing changes.
      try {
        const input = modActionInput(form);
        if (CONFIRMED_ACTIONS.has(input.action)) {
          const refusal = await foreseeModRefusal(deps, { guildId: guild.id, userId: input.userId, action: input.action, moderatorId: session.userId });
          if (refusal) throw refusalOnForm(refusal);
          return sendPage(ctx, ConfirmModActionPage({ viewer, guild, input, name: await nameOf(guild.id, input.userId), values: form }));
        }
      } catch (err) {
        if (err instanceof FormRejection) return again(err);
        throw err;
      }
    }
    await submitOnce(ctx, deps, () => takeAction(guild.id, session.userId, modActionInput(form)), again);
  });

  router.get(`${base}/:actionId`, async (ctx) => {
    const { guild, viewer } = await moderatedServer(ctx);
    const params = ModActionIdParams.safeParse({ guildId: guild.id, actionId: ctx.params.actionId });
    if (!params.success) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such page.');
    const action = await readModAction(deps, { guildId: guild.id, console: true }, params.data.actionId);
    sendPage(ctx, ModActionStatusPage({ viewer, guild, action, name: await nameOf(guild.id, action.userId) }));
  });
}
