import { appealDecisionOperation } from '../../src/appeals/appealDecisionOperation.js';
import { AppealDecisionRequest, AppealDetail, AppealList, AppealParams, AppealsQuery } from '../../src/appeals/contract.js';
import { decideAppeal } from '../../src/appeals/decideAppeal.js';
import { readAppealDetail, readAppealPage } from '../../src/appeals/readAppeals.js';
import { GuildParams } from '../../src/core/contract.js';
import type { AppDeps } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'appeals';
const feature = 'appeals';

export function appealsRoutes({ db, clock }: AppDeps): RouteDefinition[] {
  const decisionRoute = (verb: 'approve' | 'reject') =>
    defineRoute({
      method: 'post',
      path: `/guilds/{guildId}/appeals/{number}/${verb}`,
      operationId: `${verb}Appeal`,
      summary: verb === 'approve' ? 'Approve an open appeal (unban)' : 'Reject an open appeal',
      description:
        (verb === 'approve'
          ? 'The status is `approved` at once; the bot then unbans (with an unban case when Moderation is on), creates a ' +
            'single-use invite and DMs it to the user, with `applying: true` until done. '
          : 'The status is `rejected` at once and the re-appeal cooldown starts; the bot DMs the rejection when the appeal ' +
            'settings say so, with `applying: true` until done. ') +
        'A failed step shows in `failedAction`; the decision stands. Only `open` and `question` appeals can be decided: ' +
        'others answer 409 APPEAL_NOT_OPEN with their `status`.',
      area,
      feature,
      scope: 'appeals:write',
      sensitive: true,
      idempotent: true,
      request: { params: AppealParams, body: AppealDecisionRequest.optional() },
      response: { status: 202, schema: AppealDetail, description: 'The appeal as decided.' },
      errors: ['APPEAL_NOT_FOUND', 'APPEAL_NOT_OPEN', 'IDEMPOTENCY_KEY_REUSED'],
      async handle({ params, body, caller, db: trx, launch }) {
        const decided = await decideAppeal(trx, {
          guildId: caller.guild.id,
          number: params.number,
          verb,
          reason: body?.reason ?? null,
          apiKeyId: caller.apiKey.id,
          decidedBy: null,
          actor: { type: 'api_key', apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy },
          requestId: caller.requestId,
          at: clock.now(),
        });
        launch(appealDecisionOperation, decided);
        return readAppealDetail(trx, caller.guild.id, params.number);
      },
    });

  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/appeals',
      operationId: 'listAppeals',
      summary: 'Ban appeals, newest first',
      description:
        'By default only appeals waiting for a decision (`open` and `question`); pass `nextCursor` as `before` for the next page.',
      area,
      feature,
      scope: 'appeals:read',
      request: { params: GuildParams, query: AppealsQuery },
      response: { status: 200, schema: AppealList, description: 'One page of appeals.' },
      handle: ({ query, caller: { guild } }) => readAppealPage(db, guild.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/appeals/{number}',
      operationId: 'getAppeal',
      summary: 'An appeal with its answers and conversation',
      description: 'Internal staff notes are never included.',
      area,
      feature,
      scope: 'appeals:read',
      request: { params: AppealParams },
      response: { status: 200, schema: AppealDetail, description: 'The appeal.' },
      errors: ['APPEAL_NOT_FOUND'],
      handle: ({ params, caller: { guild } }) => readAppealDetail(db, guild.id, params.number),
    }),
    decisionRoute('approve'),
    decisionRoute('reject'),
  ];
}
