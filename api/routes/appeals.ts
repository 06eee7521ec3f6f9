import { writeAudit } from '../../db/shared/audit.js';
import { addAppealMessage, decideAppeal, findAppealRow, listAppeals, lockAppealRow, markAppealWorkflowStarted, toAppealDetail } from '../../db/appeals/appeals.js';
import { findAppealSettings } from '../../db/appeals/settings.js';
import { AppealDecisionRequest, AppealDetail, AppealList, AppealParams, AppealsQuery } from '../../src/appeals/contract.js';
import { GuildParams } from '../../src/core/contract.js';
import { appealNotFound, appealNotOpen } from '../../src/core/errors.js';
import { startAppealDecisionWorkflow } from '../../src/appeals/appealDecisionWorkflow.js';
import type { AppDeps } from '../context.js';
import { cursorPage } from '../cursorPage.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'appeals';
const feature = 'appeals';
const DECIDABLE = ['open', 'question'];

export function appealsRoutes({ db, clock, temporal }: AppDeps): RouteDefinition[] {
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
      async handle({ params, body, caller, db: trx, afterCommit }) {
        const guildId = caller.guild.id;
        const appeal = await lockAppealRow(trx, guildId, params.number);
        if (!appeal) throw appealNotFound();
        if (!DECIDABLE.includes(appeal.status)) throw appealNotOpen(appeal.status);
        const at = clock.now();
        const decision = verb === 'approve' ? 'approved' : 'rejected';
        const reason = body?.reason ?? null;
        const cooldown = decision === 'rejected' ? (await findAppealSettings(trx, guildId)).reappealCooldownSeconds : null;
        await decideAppeal(trx, guildId, params.number, {
          status: decision,
          reason,
          apiKeyId: caller.apiKey.id,
          at,
          reappealAfter: cooldown === null ? null : new Date(at.getTime() + cooldown * 1000),
        });
        if (reason) await addAppealMessage(trx, { guildId, number: params.number, author: 'staff', authorId: null, text: reason, at });
        await writeAudit(trx, {
          guildId,
          actor: { type: 'api_key', apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy },
          action: `appeals.${verb}`,
          target: { type: 'appeal', id: String(params.number) },
          requestId: caller.requestId,
          data: { userId: appeal.user_id, previousStatus: appeal.status, reason },
        });
        afterCommit(async () => {
          await startAppealDecisionWorkflow(temporal, { guildId, number: params.number, decision, keyName: caller.apiKey.name });
          await markAppealWorkflowStarted(db, guildId, params.number, clock.now());
        });
        return toAppealDetail(trx, (await findAppealRow(trx, guildId, params.number))!);
      },
    });

  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/appeals',
      operationId: 'listAppeals',
      summary: 'Ban appeals, newest first',
      area,
      feature,
      scope: 'appeals:read',
      request: { params: GuildParams, query: AppealsQuery },
      response: { status: 200, schema: AppealList, description: 'One page of appeals.' },
      async handle({ query, caller: { guild } }) {
        return cursorPage(query.limit, (limit) => listAppeals(db, guild.id, { ...query, limit }), (a) => a.number);
      },
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
      async handle({ params, caller: { guild } }) {
        const row = await findAppealRow(db, guild.id, params.number);
        if (!row) throw appealNotFound();
        return toAppealDetail(db, row);
      },
    }),
    decisionRoute('approve'),
    decisionRoute('reject'),
  ];
}
