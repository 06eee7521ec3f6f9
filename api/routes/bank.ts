import { applyBankChange } from '../../src/bank/applyBankChange.js';
import { readBalance, readBankLeaderboard, readLedgerPage } from '../../src/bank/readBank.js';
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
      handle: ({ params, caller: { guild } }) => readBalance(db, guild.id, params.userId),
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
      handle: ({ params, query, caller: { guild } }) => readLedgerPage(db, guild.id, params.userId, query),
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
          actor: { type: 'api_key', apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy },
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
      handle: ({ query, caller: { guild } }) => readBankLeaderboard(db, guild.id, query.limit),
    }),
  ];
}
