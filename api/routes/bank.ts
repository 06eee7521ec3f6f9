import { findBalance, findBankSettings, listLedger, listTopBalances } from '../../db/bank/accounts.js';
import { applyBankChange } from '../../src/bank/applyBankChange.js';
import {
  BankBalance,
  BankChange,
  BankChangeRequest,
  BankLeaderboard,
  BankLeaderboardQuery,
  BankTransactionPage,
  BankTransactionsQuery,
} from '../../src/bank/contract.js';
import { GuildMemberParams, GuildParams } from '../../src/core/contract.js';
import { requireHumanMember } from '../../src/core/members.js';
import type { AppDeps } from '../context.js';
import { cursorPage } from '../cursorPage.js';
import { defineRoute } from '../route.js';

const area = 'bank';
const feature = 'bank';

export function bankRoutes({ db, platform, clock }: AppDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/bank/members/{userId}',
      operationId: 'getBankBalance',
      summary: "Get a member's balance",
      description: "A member without an account has the server's starting balance.",
      area,
      feature,
      scope: 'bank:read',
      request: { params: GuildMemberParams },
      response: { status: 200, schema: BankBalance, description: 'The balance with the server currency.' },
      async handle({ params, caller: { guild } }) {
        const [balance, settings] = await Promise.all([findBalance(db, guild.id, params.userId), findBankSettings(db, guild.id)]);
        return { userId: params.userId, balance: balance ?? settings.startingBalance, currency: settings.currency };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/bank/members/{userId}/transactions',
      operationId: 'listBankTransactions',
      summary: "List a member's ledger, newest first",
      description: 'Pages of `limit` rows; pass `nextCursor` as `before` for the next page (null on the last one).',
      area,
      feature,
      scope: 'bank:read',
      request: { params: GuildMemberParams, query: BankTransactionsQuery },
      response: { status: 200, schema: BankTransactionPage, description: 'One page of ledger rows.' },
      async handle({ params, query, caller: { guild } }) {
        const page = await cursorPage(query.limit, (limit) => listLedger(db, guild.id, params.userId, { limit, before: query.before }), (r) => r.id);
        return { items: page.items.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/bank/members/{userId}/transactions',
      operationId: 'createBankTransaction',
      summary: "Add to or remove from a member's balance",
      description: 'Recorded in the ledger with type `api`, reported as a `bank.transaction` event and posted in the bank log channel.',
      area,
      feature,
      scope: 'bank:write',
      idempotent: true,
      request: { params: GuildMemberParams, body: BankChangeRequest },
      response: { status: 201, schema: BankChange, description: 'The change as applied.' },
      errors: ['MEMBER_NOT_FOUND', 'INSUFFICIENT_FUNDS', 'IDEMPOTENCY_KEY_REUSED', 'BOT_ACCOUNT', 'BALANCE_LIMIT'],
      check: ({ params, caller }) => requireHumanMember(platform, caller.guild.id, params.userId).then(() => {}),
      async handle({ params, body, caller, db: trx, publish }) {
        const { change, events } = await applyBankChange(trx, {
          guildId: caller.guild.id,
          userId: params.userId,
          type: body.type,
          amount: body.amount,
          reason: body.reason ?? null,
          apiKeyId: caller.apiKey.id,
          actorId: caller.apiKey.createdBy,
          requestId: caller.requestId,
          at: clock.now(),
        });
        publish(events);
        return change;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/bank/leaderboard',
      operationId: 'getBankLeaderboard',
      summary: 'Richest members first',
      description: 'Ties are ordered by user id, so the order is the same on every read.',
      area,
      feature,
      scope: 'bank:read',
      request: { params: GuildParams, query: BankLeaderboardQuery },
      response: { status: 200, schema: BankLeaderboard, description: 'The top balances with the server currency.' },
      async handle({ query, caller: { guild } }) {
        const [rows, settings] = await Promise.all([listTopBalances(db, guild.id, query.limit), findBankSettings(db, guild.id)]);
        return { items: rows.map((r, i) => ({ rank: i + 1, ...r })), currency: settings.currency };
      },
    }),
  ];
}
