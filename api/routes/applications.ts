import { applicationDecisionOperation } from '../../src/applications/applicationDecisionOperation.js';
import { DecisionRequest, FormList, SubmissionDetail, SubmissionList, SubmissionParams, SubmissionsQuery } from '../../src/applications/contract.js';
import { decideSubmission } from '../../src/applications/decideSubmission.js';
import { readForms, readSubmissionDetail, readSubmissionPage } from '../../src/applications/readApplications.js';
import { GuildParams } from '../../src/core/contract.js';
import type { AppDeps } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'applications';
const feature = 'applications';

export function applicationsRoutes({ db, clock }: AppDeps): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/applications/forms',
      operationId: 'listApplicationForms',
      summary: 'Application forms in console order, with submission counts',
      area,
      feature,
      scope: 'applications:read',
      request: { params: GuildParams },
      response: { status: 200, schema: FormList, description: 'Every form of the server.' },
      handle: ({ caller: { guild } }) => readForms(db, guild.id),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/applications/submissions',
      operationId: 'listApplicationSubmissions',
      summary: 'Application submissions, newest first, without answers',
      description: 'Pass `nextCursor` as `before` for the next page.',
      area,
      feature,
      scope: 'applications:read',
      request: { params: GuildParams, query: SubmissionsQuery },
      response: { status: 200, schema: SubmissionList, description: 'One page of submissions.' },
      handle: ({ query, caller: { guild } }) => readSubmissionPage(db, guild.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/applications/submissions/{number}',
      operationId: 'getApplicationSubmission',
      summary: 'A submission with its answers, the applicant snapshot and the state of its decision',
      area,
      feature,
      scope: 'applications:read',
      request: { params: SubmissionParams },
      response: { status: 200, schema: SubmissionDetail, description: 'The submission.' },
      errors: ['APPLICATION_NOT_FOUND'],
      handle: ({ params, caller: { guild } }) => readSubmissionDetail(db, guild.id, params.number),
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/applications/submissions/{number}/decision',
      operationId: 'decideApplicationSubmission',
      summary: 'Accept or deny an open submission',
      description:
        'The status, reason and decidedAt stand at once (a denial starts the form\'s re-apply cooldown); the bot then ' +
        'gives or removes the form\'s roles (accepted), DMs the applicant, announces (accepted) and updates the review, with ' +
        '`applying: true` until done. Each effect that failed shows in `failedActions`; the decision stands. Only `pending`, ' +
        '`interview` and `hold` submissions can be decided: others answer 409 APPLICATION_NOT_OPEN with their `status`.',
      area,
      feature,
      scope: 'applications:write',
      sensitive: true,
      idempotent: true,
      request: { params: SubmissionParams, body: DecisionRequest },
      response: { status: 202, schema: SubmissionDetail, description: 'The submission as decided.' },
      errors: ['APPLICATION_NOT_FOUND', 'APPLICATION_NOT_OPEN', 'IDEMPOTENCY_KEY_REUSED'],
      async handle({ params, body, caller, db: trx, launch }) {
        const decided = await decideSubmission(trx, {
          guildId: caller.guild.id,
          number: params.number,
          decision: body.decision,
          reason: body.reason ?? null,
          apiKeyId: caller.apiKey.id,
          decidedBy: null,
          actor: { type: 'api_key', apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy },
          requestId: caller.requestId,
          at: clock.now(),
        });
        launch(applicationDecisionOperation, decided);
        return readSubmissionDetail(trx, caller.guild.id, params.number);
      },
    }),
  ];
}
