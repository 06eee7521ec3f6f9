import type { z } from 'zod';
import { findModAction, type ModActionRecord } from '../../db/moderation/actions.js';
import { findCase, listCaseEvents, listCases } from '../../db/moderation/cases.js';
import { toCaseEventBody, toModCaseBody } from '../../src/moderation/caseViews.js';
import { countHit } from '../../db/shared/rateLimits.js';
import { GuildMemberParams, GuildParams } from '../../src/core/contract.js';
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
  type ModActionBody,
} from '../../src/moderation/contract.js';
import { currentWindow } from '../../src/core/fixedWindow.js';
import type { ModActionType } from '../../src/moderation/refusalRules.js';
import { actionNotFound, caseNotFound, memberNotFound, rateLimited } from '../../src/core/errors.js';
import { readOperationStatus } from '../../src/core/temporal/operation.js';
import { modActionOperation, modActionStatus } from '../../src/moderation/modActionOperation.js';
import { requestModAction, type ModActionAsked } from '../../src/moderation/requestModAction.js';
import type { AppDeps } from '../context.js';
import { cursorPage } from '../cursorPage.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'moderation';
const feature = 'moderation';
/** Spec: Limits, moderation write actions. */
export const MOD_ACTIONS_PER_MINUTE = 10;

function toModActionBody(record: ModActionRecord, live: Pick<ModActionBody, 'status' | 'caseNumber' | 'error'>): ModActionBody {
  return { actionId: record.actionId, action: record.action, userId: record.userId, ...live, requestedAt: record.requestedAt.toISOString() };
}

const RULES =
  'Acts in the name of the key creator, who must still hold the platform permission; the target must be below both the ' +
  "creator's and the bot's highest role and is never the owner, the bot or the creator. At most 10 actions per minute " +
  'per key. Answers 202 `pending`; poll GET /moderation/actions/{actionId}.';

interface ActionSpec {
  action: ModActionType;
  summary: string;
  body: z.ZodType;
  /** Kick, timeout and warn need the target to be a member now; ban and unban do not. */
  needsMember: boolean;
  description?: string;
}

const ACTIONS: ActionSpec[] = [
  { action: 'warn', summary: 'Warn a member', body: WarnRequest, needsMember: true, description: 'The warning counts toward escalation.' },
  { action: 'timeout', summary: 'Time a member out', body: TimeoutRequest, needsMember: true, description: 'The case ends when the timeout runs out.' },
  { action: 'untimeout', summary: "Lift a member's timeout", body: ModReasonRequest.optional(), needsMember: true },
  { action: 'kick', summary: 'Kick a member', body: ModReasonRequest.optional(), needsMember: true },
  {
    action: 'ban',
    summary: 'Ban a user (member or not)',
    body: BanRequest.optional(),
    needsMember: false,
    description: 'With `durationSeconds` it is a tempban: the bot lifts it when it runs out.',
  },
  { action: 'unban', summary: 'Lift a ban', body: ModReasonRequest.optional(), needsMember: false },
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
      async check({ params, caller }) {
        if (spec.needsMember && !(await platform.getMember(caller.guild.id, params.userId))) throw memberNotFound();
        const window = currentWindow(clock.now());
        const actions = await countHit(db, `moderation-actions:${caller.apiKey.id}`, window.start);
        if (actions > MOD_ACTIONS_PER_MINUTE) {
          throw rateLimited(window.secondsToReset, `At most ${MOD_ACTIONS_PER_MINUTE} moderation actions per minute per key.`);
        }
      },
      async handle({ params, body, caller, db: trx, launch }) {
        const record = await requestModAction(trx, {
          guildId: caller.guild.id,
          userId: params.userId,
          action: spec.action,
          apiKeyId: caller.apiKey.id,
          request: (body ?? {}) as ModActionAsked['request'],
          requestedAt: clock.now(),
        });
        launch(modActionOperation, record);
        return toModActionBody(record, { status: 'pending', caseNumber: null, error: null });
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
      async handle({ query, caller: { guild } }) {
        const page = await cursorPage(query.limit, (limit) => listCases(db, guild.id, { ...query, limit }), (c) => c.number);
        return { ...page, items: page.items.map(toModCaseBody) };
      },
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
      async handle({ params, caller: { guild } }) {
        const found = await findCase(db, guild.id, params.number);
        if (!found) throw caseNotFound();
        const events = await listCaseEvents(db, guild.id, found.number);
        return { ...toModCaseBody(found), events: events.map(toCaseEventBody) };
      },
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
      async handle({ params, caller }) {
        const record = await findModAction(db, params.actionId);
        if (!record || record.apiKeyId !== caller.apiKey.id || record.guildId !== caller.guild.id) throw actionNotFound();
        if (record.status === 'done' || record.status === 'failed') {
          return toModActionBody(record, { status: record.status, caseNumber: record.caseNumber, error: record.error });
        }
        const live = await readOperationStatus(temporal, modActionOperation.workflowId(record), modActionStatus);
        return toModActionBody(record, {
          status: live.status,
          caseNumber: live.status === 'done' ? live.caseNumber : null,
          error: live.status === 'failed' ? live.error : null,
        });
      },
    }),
  ];
}
