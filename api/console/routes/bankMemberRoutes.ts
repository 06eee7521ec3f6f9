import type { GuildRecord } from '../../../db/guild/guilds.js';
import { applyBankChange } from '../../../src/bank/applyBankChange.js';
import { nextBalance } from '../../../src/bank/balanceRules.js';
import { BankChangeRequest } from '../../../src/bank/contract.js';
import { readBalance, readLedgerPage } from '../../../src/bank/readBank.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import { memberNames } from '../../../src/console/memberNames.js';
import { AppError } from '../../../src/core/errors.js';
import { requireHumanMember } from '../../../src/core/members.js';
import { startFanoutsOrLeaveToRelay } from '../../../src/events/outbox.js';
import type { AppDeps } from '../../context.js';
import { formOf, managedServer } from '../consoleDeps.js';
import { requireFeature } from '../consoleFeatures.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { sendPage } from '../render.js';
import { ADJUST_FIELDS, BankMemberPage, ConfirmRemovalPage, type BankMember } from '../views/bankMemberPages.js';
import { bankMemberPath } from '../views/bankPages.js';
import type { FormProblem, FormState } from '../views/formParts.js';
import type { Viewer } from '../views/layout.js';
import { cursorOf } from './listQuery.js';

const LEDGER_PAGE = 25;
const FIELD_OF_INPUT: Record<string, string> = { type: ADJUST_FIELDS.type, amount: ADJUST_FIELDS.amount, reason: ADJUST_FIELDS.reason };
const MESSAGE_OF_INPUT: Record<string, string> = {
  type: 'Choose to add or to remove.',
  amount: 'Enter a whole number from 1 to 1,000,000,000,000.',
  reason: 'Give a reason of at most 200 characters, without control characters, or none.',
};

/**
 * The adjustment form read by the API's own request schema (BankChangeRequest), so its limits and its code are the
 * API's: 400 INVALID_REQUEST, each problem on its field.
 */
function changeOf(form: URLSearchParams) {
  const amount = (form.get('amount') ?? '').trim();
  const reason = form.get('reason') ?? '';
  const parsed = BankChangeRequest.safeParse({
    type: form.get('type') ?? undefined,
    amount: /^\d{1,16}$/.test(amount) ? Number(amount) : amount,
    reason: reason.trim() === '' ? null : reason,
  });
  if (parsed.success) return { type: parsed.data.type, amount: parsed.data.amount, reason: parsed.data.reason ?? null };
  const inputs = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
  throw new FormRejection(400, 'INVALID_REQUEST', inputs.map((input) => ({ field: FIELD_OF_INPUT[input], message: MESSAGE_OF_INPUT[input] ?? 'Check the form.' })));
}

/** The bank's and the platform's refusals of a change (the API's codes and statuses), on the form. */
function onTheForm(err: unknown): never {
  if (err instanceof AppError) {
    if (err.code === 'INSUFFICIENT_FUNDS') {
      const balance = Number(err.extra.balance);
      throw new FormRejection(err.status, err.code, [{ field: ADJUST_FIELDS.amount, message: `The balance is ${balance.toLocaleString('en-US')}: remove at most that.` }]);
    }
    if (err.code === 'BALANCE_LIMIT') {
      throw new FormRejection(err.status, err.code, [{ field: ADJUST_FIELDS.amount, message: `The balance may not go above ${Number(err.extra.maxBalance).toLocaleString('en-US')}.` }]);
    }
    if (err.code === 'MEMBER_NOT_FOUND' || err.code === 'BOT_ACCOUNT') throw new FormRejection(err.status, err.code, [{ message: err.message }]);
  }
  throw err;
}

/** The member of the path: a user id, or no such page. */
function userParam(ctx: ConsoleContext): string {
  const userId = ctx.params.userId ?? '';
  if (!/^\d{17,20}$/.test(userId)) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such page.');
  return userId;
}

/**
 * A member's balance and ledger (the API's readers), and the adjustment through the API's use case
 * (src/bank/applyBankChange.ts) with the console user as actor; removing money asks first.
 */
export function bankMemberRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/bank/members/:userId';

  async function memberOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'bank');
    const userId = userParam(ctx);
    const names = await memberNames(deps.memberCache, server.guild.id, [userId]);
    return { ...server, member: { userId, name: names.get(userId) ?? null } satisfies BankMember };
  }

  async function sendMemberPage(ctx: ConsoleContext, guild: GuildRecord, viewer: Viewer, member: BankMember, form?: FormState): Promise<void> {
    const before = cursorOf(ctx, 'a transaction number', 'before', 15);
    const [{ balance, currency }, ledger] = await Promise.all([
      readBalance(deps.db, guild.id, member.userId),
      readLedgerPage(deps.db, guild.id, member.userId, { limit: LEDGER_PAGE, before }),
    ]);
    const olderHref = ledger.nextCursor && `${bankMemberPath(guild.id, member.userId)}?before=${ledger.nextCursor}`;
    sendPage(ctx, BankMemberPage({ viewer, guild, member, balance, currency, ledger: ledger.items, olderHref, form }), form?.problem?.status);
  }

  router.get(base, async (ctx) => {
    const { guild, viewer, member } = await memberOf(ctx);
    await sendMemberPage(ctx, guild, viewer, member);
  });

  router.post(`${base}/adjustments`, async (ctx) => {
    const { guild, viewer, actor, member } = await memberOf(ctx);
    const form = formOf(ctx);
    const rejected = (problem: FormProblem) => sendMemberPage(ctx, guild, viewer, member, { values: form, problem });
    const target = () => requireHumanMember(deps.platform, guild.id, member.userId).catch(onTheForm);

    // A removal first shows what the balance becomes, by the bank's own rule; nothing is taken (nor the form's token).
    if (form.get('type') === 'remove' && form.get('confirm') !== 'yes') {
      try {
        const change = changeOf(form);
        await target();
        const { balance, currency } = await readBalance(deps.db, guild.id, member.userId);
        try {
          nextBalance(balance, change, null);
        } catch (err) {
          onTheForm(err);
        }
        return sendPage(ctx, ConfirmRemovalPage({ viewer, guild, member, amount: change.amount, reason: change.reason, balance, currency }));
      } catch (err) {
        if (err instanceof FormRejection) return rejected(err);
        throw err;
      }
    }

    await submitOnce(
      ctx,
      deps,
      async () => {
        const change = changeOf(form);
        await target();
        const { events } = await deps.db
          .transaction()
          .execute((trx) => applyBankChange(trx, { guildId: guild.id, userId: member.userId, ...change, actor, requestId: ctx.state.requestId, at: deps.clock.now() }))
          .catch(onTheForm);
        // As the API's route publishes after its commit: if Temporal cannot take it now, the relay starts it.
        await startFanoutsOrLeaveToRelay({ db: deps.db, temporal: deps.temporal, clock: deps.clock, logger: deps.logger }, events);
        return bankMemberPath(guild.id, member.userId);
      },
      rejected,
    );
  });
}
