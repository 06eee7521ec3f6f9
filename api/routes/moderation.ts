import type { z } from 'zod';
import { GuildMemberParams, GuildParams } from '../../src/core/contract.js';
import { admitModAction } from '../../src/moderation/admitModAction.js';
import {
  BanRequest,
  CaseParams,
  ModAction,
  ModActionIdParams,
  ModCaseDetail,
  ModCaseList,
  ModCasesQuery,
  ModReasonRequest,
  TimeoutRequest,
  WarnRequest,
} from '../../src/moderation/contract.js';
import { modActionOperation } from '../../src/moderation/modActionOperation.js';
import { pendingModActionBody, readModAction } from '../../src/moderation/readModAction.js';
import { readCaseDetail, readCasePage } from '../../src/moderation/readModeration.js';
import type { ModActionType } from '../../src/moderation/refusalRules.js';
import { requestModAction, type ModActionAsked } from '../../src/moderation/requestModAction.js';
import type { AppDeps } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'moderation';
const feature = 'moderation';

const RULES =
  'Acts in the name of the key creator, who must still hold the platform permission; the target must be below both the ' +
  "creator's and the bot's highest role and is never the owner, the bot or the creator. At most 10 actions per minute " +
  'per key. Answers 202 `pending`; poll GET /moderation/actions/{actionId}.';

interface ActionSpec {
  action: ModActionType;
  summary: string;
  body: z.ZodType;
  description?: string;
}

const ACTIONS: ActionSpec[] = [
  { action: 'warn', summary: 'Warn a member', body: WarnRequest, description: 'The warning counts toward escalation.' },
  { action: 'timeout', summary: 'Time a member out', body: TimeoutRequest, description: 'The case ends when the timeout runs out.' },
  { action: 'untimeout', summary: "Lift a member's timeout", body: ModReasonRequest.optional() },
  { action: 'kick', summary: 'Kick a member', body: ModReasonRequest.optional() },
  {
    action: 'ban',
    summary: 'Ban a user (member or not)',
    body: BanRequest.optional(),
    description: 'With `durationSeconds` it is a tempban: the bot lifts it when it runs out.',
  },
  { action: 'unban', summary: 'Lift a ban', body: ModReasonRequest.optional() },
];

export function moderationRoutes({ db, platform, clock, temporal }: AppDeps): RouteDefinition[] {
  const actionRoute = (spec: ActionSpec) =>
    defineRoute({
      method: 'post',
      path: `/guilds/{guildId}/moderation/users/{userId}/${spec.action}`,
      operationId: `${spec.action}User`,
      summary: `${spec.summary} (asynchronous)`,
      description: [spec.description, RULES].filter(Boolean).join(' '),
      area,
      feature,
      scope: 'moderation:write',
      sensitive: true,
      idempotent: true,
      request: { params: GuildMemberParams, body: spec.body },
      response: { status: 202, schema: ModAction, description: 'The queued action.' },
      errors: ['MEMBER_NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED'],
      check: ({ params, caller }) =>
        admitModAction({ db, platform, clock }, { guildId: caller.guild.id, userId: params.userId, action: spec.action, by: { apiKeyId: caller.apiKey.id } }),
      async handle({ params, body, caller, db: trx, launch }) {
        const record = await requestModAction(trx, {
          guildId: caller.guild.id,
          userId: params.userId,
          action: spec.action,
          by: { apiKeyId: caller.apiKey.id },
          request: (body ?? {}) as ModActionAsked['request'],
          requestedAt: clock.now(),
        });
        launch(modActionOperation, record);
        return pendingModActionBody(record);
      },
    });

  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/moderation/cases',
      operationId: 'listModerationCases',
      summary: 'Moderation cases, newest first',
      description: 'Deleted cases are left out. `active` keeps only (1) or leaves out (0) running warnings, timeouts and tempbans.',
      area,
      feature,
      scope: 'moderation:read',
      sensitive: true,
      request: { params: GuildParams, query: ModCasesQuery },
      response: { status: 200, schema: ModCaseList, description: 'One page of cases.' },
      handle: ({ query, caller: { guild } }) => readCasePage(db, guild.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/moderation/cases/{number}',
      operationId: 'getModerationCase',
      summary: 'A case with its timeline',
      description: 'Unknown and deleted cases answer 404 CASE_NOT_FOUND.',
      area,
      feature,
      scope: 'moderation:read',
      sensitive: true,
      request: { params: CaseParams },
      response: { status: 200, schema: ModCaseDetail, description: 'The case and its events, oldest first.' },
      errors: ['CASE_NOT_FOUND'],
      handle: ({ params, caller: { guild } }) => readCaseDetail(db, guild.id, params.number),
    }),
    ...ACTIONS.map(actionRoute),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/moderation/actions/{actionId}',
      operationId: 'getModerationAction',
      summary: 'Poll a moderation action',
      description: 'Only actions requested with the same API key are visible; any other key gets 404 ACTION_NOT_FOUND.',
      area,
      feature,
      scope: 'moderation:write',
      sensitive: true,
      request: { params: ModActionIdParams },
      response: { status: 200, schema: ModAction, description: 'The action and its status.' },
      errors: ['ACTION_NOT_FOUND'],
      handle: ({ params, caller }) => readModAction({ db, temporal }, { guildId: caller.guild.id, apiKeyId: caller.apiKey.id }, params.actionId),
    }),
  ];
}
